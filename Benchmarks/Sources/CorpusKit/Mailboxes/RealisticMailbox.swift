/// A personal mailbox as a mail export looks: about 2% bank transaction alerts (the same 12
/// formats) and 1.5% other bank mail among newsletters, personal mail, receipts, notifications and
/// mail with attachments (PDF and JPEG-like, 100 KB to 25 MB), which make most of the bytes.
/// Messages arrive in time order, from 2023 on, a few hours apart.
public struct RealisticMailbox {
    private var random: CorpusRandom
    private let renderer = MailRenderer()
    private var clock = CivilTime.seconds(year: 2023, month: 1, day: 1)
    /// The ordinal of the next message (0-based), as written in its Message-ID.
    public private(set) var ordinal = 0

    /// Kinds of mail and their weights per thousand messages.
    private enum Kind: CaseIterable {
        case alert, bankNotice, statement, newsletter, personal, receipt, notification, attachments

        var weight: Int {
            switch self {
            case .alert: 20
            case .bankNotice: 10
            case .statement: 4
            case .newsletter: 330
            case .personal: 270
            case .receipt: 150
            case .notification: 156
            case .attachments: 60
            }
        }
    }
    private static let weights = Kind.allCases.map(\.weight)

    public init(seed: UInt64) {
        random = CorpusRandom(seed: seed)
    }

    /// Writes the next message as an mbox record; returns its label when it is a transaction.
    public mutating func writeNext(to sink: ByteSink) -> Label? {
        clock += random.int(in: 60...(4 * 3600))
        let date = CivilTime(seconds: clock)
        var label: Label?
        let draft: MailDraft
        switch Kind.allCases[random.weighted(Self.weights)] {
        case .alert:
            let alert = random.pick(BankAlertFormat.allCases).make(date, &random)
            draft = alert.draft
            label = alert.label
        case .bankNotice: draft = random.pick(BankNotice.allCases).make(date, &random)
        case .statement: draft = EverydayMail.statement(&random, date)
        case .newsletter: draft = EverydayMail.newsletter(&random)
        case .personal: draft = EverydayMail.personal(&random, date)
        case .receipt: draft = EverydayMail.receipt(&random)
        case .notification: draft = EverydayMail.notification(&random)
        case .attachments: draft = EverydayMail.withAttachments(&random)
        }
        renderer.write(draft, ordinal: ordinal, date: date, random: &random, to: sink)
        ordinal += 1
        return label
    }
}
