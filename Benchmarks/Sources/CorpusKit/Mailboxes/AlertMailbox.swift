/// An alerts-heavy mailbox like the reference corpus (`shared/bench/gen_mbox.py`): 70% transaction
/// alerts over the 12 formats, 30% OTPs, declines, statements, promotions, newsletters and
/// personal mail; arrival times spread over 2024.
public struct AlertMailbox {
    private var random: CorpusRandom
    private let renderer = MailRenderer()
    /// The ordinal of the next message (0-based), as written in its Message-ID.
    public private(set) var ordinal = 0

    public init(seed: UInt64) {
        random = CorpusRandom(seed: seed)
    }

    /// Writes the next message as an mbox record; returns its label when it is a transaction.
    public mutating func writeNext(to sink: ByteSink) -> Label? {
        let start = CivilTime.seconds(year: 2024, month: 1, day: 1)
        let date = CivilTime(seconds: start + random.int(in: 0...(365 * 86_400)))
        let draft: MailDraft
        var label: Label?
        if random.chance(0.70) {
            let alert = random.pick(BankAlertFormat.allCases).make(date, &random)
            draft = alert.draft
            label = alert.label
        } else {
            switch random.int(in: 0...5) {
            case 0: draft = BankNotice.otp.make(date, &random)
            case 1: draft = BankNotice.decline.make(date, &random)
            case 2: draft = BankNotice.statement.make(date, &random)
            case 3: draft = BankNotice.promotion.make(date, &random)
            case 4: draft = EverydayMail.shortNewsletter(&random)
            default: draft = EverydayMail.shortPersonal(&random)
            }
        }
        renderer.write(draft, ordinal: ordinal, date: date, random: &random, to: sink)
        ordinal += 1
        return label
    }
}
