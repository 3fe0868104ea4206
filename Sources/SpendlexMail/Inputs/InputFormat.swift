/// The input formats the readers understand; the raw values are the names used on the command
/// line (`--input-format mbox`).
public enum InputFormat: String, Sendable, CaseIterable {
    /// A Unix mailbox: mboxo, mboxrd, Gmail Takeout `.mbox`; LF or CRLF.
    case mbox
    /// A Maildir (cur/ and new/), with Maildir++ sub-folders.
    case maildir
    /// One RFC 822 message file.
    case eml
    /// A directory tree of message files.
    case emlFolder = "eml-folder"
    /// An SMS Backup & Restore (SyncTech) XML backup.
    case smsBackupXML = "sms-backup-xml"
    /// JSON Lines, one message object a line.
    case jsonLines = "jsonl"
}
