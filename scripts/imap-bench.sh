#!/usr/bin/env bash
# Messages per second fetched and parsed from a local Dovecot (IMAPS on loopback): the reference
# corpus (shared/bench/gen_mbox.py, N mails, seed 7) as a Maildir, fetched by a release build of
# `spendlex fetch` into a new ledger, and without one; beside it, `parse --store` on the same
# mails as an mbox. Each timed with farm-bench (median of RUNS runs), after one untimed run that
# lets Dovecot build its index.
#
#   scripts/imap-bench.sh [N] [RUNS]        (default 100000 mails, 5 runs; needs root or Dovecot's users)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-100000}
runs=${2:-5}
generator=${GEN_MBOX:-../shared/bench/gen_mbox.py}
work=$(mktemp -d /tmp/spendlex-imap-bench.XXXXXX)
chmod 755 "$work"
trap '[[ -n ${master:-} ]] && kill "$master" 2>/dev/null; sleep 1; rm -rf "$work"' EXIT

swift build -c release --product spendlex >/dev/null
binary=$(swift build -c release --show-bin-path)/spendlex
python3 "$generator" "$count" "$work/corpus.mbox" 7 >/dev/null
python3 Tests/Fixtures/imap/make-maildir.py "$work/corpus.mbox" "$work/Maildir" > "$work/counts.json"
mkdir -p "$work/run" "$work/state" "$work/home"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
  -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
echo 'bench:{PLAIN}bench' > "$work/passwd"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if [[ $(id -u) == 0 ]]; then user=dovecot; group=dovecot; login=dovenull; chown -R dovecot:dovecot "$work/Maildir" "$work/home" "$work/state"
else user=$(id -un); group=$(id -gn); login=$user; fi
cat > "$work/dovecot.conf" <<CONF
base_dir = $work/run
state_dir = $work/state
log_path = $work/dovecot.log
instance_name = spendlex-bench-$port
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <$work/cert.pem
ssl_key = <$work/key.pem
auth_mechanisms = plain
default_internal_user = $user
default_internal_group = $group
default_login_user = $login
first_valid_uid = 1
service anvil {
  chroot =
}
service imap-login {
  chroot =
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $port
    ssl = yes
  }
}
passdb {
  driver = passwd-file
  args = $work/passwd
}
userdb {
  driver = static
  args = uid=$user gid=$group home=$work/home
}
mail_location = maildir:$work/Maildir
CONF
/usr/sbin/dovecot -F -c "$work/dovecot.conf" & master=$!
sleep 1

url="imaps://bench@localhost:$port/INBOX"
fetch="SPENDLEX_IMAP_PASSWORD=bench $binary fetch --rules Benchmarks/rules --rules grammars $url --ca-file $work/cert.pem --quiet"
# Untimed: Dovecot indexes the Maildir on first access.
sh -c "$fetch -o /dev/null"
echo "mails: $(cat "$work/counts.json")"
# fetch --store against parse --store on the same mails (A/B pair by pair), then fetch alone.
farm-bench -n "$runs" --timeout 1800 \
  --vs "sh -c 'rm -f $work/p.sqlite*; $binary parse --rules Benchmarks/rules --rules grammars --quiet $work/corpus.mbox --store $work/p.sqlite'" \
  -- sh -c "rm -f $work/l.sqlite*; $fetch --store $work/l.sqlite"
farm-bench -n "$runs" --timeout 900 -- sh -c "$fetch -o /dev/null"
# One more, not quiet: the summary with messages per second.
sh -c "rm -f $work/l.sqlite*; ${fetch% --quiet} --store $work/l.sqlite"
