-- wrk script for scripts/load-test.sh: POST /messages, a different HDFC card SMS each request
-- (amount and merchant from a per-thread counter), so that each one is stored as new.
local counter = 0
local errors = 0
local threads = 0
-- `tid`: set in each thread's state by setup (a global, so that thread:set reaches it).
tid = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-API-Key"] = os.getenv("SPENDLEX_KEY")
end

function request()
  counter = counter + 1
  local amount = string.format("%d.%02d", 100 + counter, tid)
  local body = string.format(
    '{"sender":"VM-HDFCBK","received_at":"2026-05-02T16:56:30Z","text":"Spent Rs.%s On HDFC Bank Card 0000 At STORE%dX%d On 2026-05-02:22:26:01.Not You?"}',
    amount, tid, counter)
  return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
  if status ~= 201 then
    errors = errors + 1
    if errors <= 3 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
  end
end
