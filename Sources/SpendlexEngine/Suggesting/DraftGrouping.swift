import SpendlexRules

/// Messages that one draft serves: the first one's generalization, the pattern that passed for
/// it, and every later message with the same skeleton or that the pattern reads.
final class DraftGroup {
    /// The first message's generalization.
    let generalized: GeneralizedMessage
    /// Its full pattern, for grouping by skeleton.
    let skeleton: String
    /// The first message's typed tokens, for grouping by shape.
    let shape: MessageShape
    /// The pattern that compiled and read the first message as intended.
    let pattern: String
    /// The fields that pattern captures.
    let captured: Set<FieldName>
    /// The messages it covers, the first one first.
    private(set) var members: [Message]
    /// The draft alone, compiled, to test whether later messages fit it.
    private let worker: RuleEngine.Worker
    private let bankID: String

    init(generalized: GeneralizedMessage, skeleton: String, pattern: String, captured: Set<FieldName>,
         first: Message, engine: RuleEngine, bankID: String) {
        self.generalized = generalized
        self.skeleton = skeleton
        self.shape = MessageShape(generalized)
        self.pattern = pattern
        self.captured = captured
        self.members = [first]
        self.worker = engine.makeWorker()
        self.bankID = bankID
    }

    /// Whether the draft reads this message into a transaction with an amount.
    func reads(_ message: Message) -> Bool {
        guard let transaction = worker.parse(message, asBank: bankID).transaction else { return false }
        return transaction.rule == DraftGrouping.probeID && transaction.amount != nil
    }

    func add(_ message: Message) {
        members.append(message)
    }
}

/// Groups unmatched messages so that one draft serves many: a message joins the first draft
/// that reads it or whose skeleton it shares; else the first draft of its shape (`MessageShape`:
/// the same typed tokens but for names, numbers and a few words), whose pattern is widened
/// where the two differ (a varying name becomes the merchant slot, other varying words `\S+`)
/// when the widened pattern reads every message of the draft; otherwise it starts a new draft,
/// built with the richest pattern that compiles and reads it as intended, falling back to
/// fewer fields.
struct DraftGrouping {
    /// The parser id drafts are tried under, before they get their real ids.
    static let probeID = "draft.probe"
    /// The order in which fields stop being captured when a draft does not pass.
    static let fallbackOrder: [FieldName] = [.balance, .reference, .time, .date, .last4, .merchant]

    let bank: DraftBank
    let compiler: DraftCompiler
    let amountNormalizer: AmountNormalizer
    private(set) var groups: [DraftGroup] = []
    /// Messages a draft was built for but no pattern passed.
    private(set) var undrafted: [Message] = []

    init(bank: DraftBank, compiler: DraftCompiler) {
        self.bank = bank
        self.compiler = compiler
        self.amountNormalizer = AmountNormalizer(country: bank.country)
    }

    /// Adds one message with its generalization.
    mutating func add(_ message: Message, generalized: GeneralizedMessage) {
        let skeleton = generalized.skeleton
        if let group = groups.first(where: { $0.skeleton == skeleton || $0.reads(message) }) {
            group.add(message)
            return
        }
        let shape = MessageShape(generalized)
        for (index, group) in groups.enumerated() where group.shape.isSameShape(as: shape) {
            if let widened = widen(group, toRead: message, shape: shape) {
                groups[index] = widened
                return
            }
        }
        guard let skeleton, let group = draft(generalized, for: message, skeleton: skeleton) else {
            undrafted.append(message)
            return
        }
        groups.append(group)
    }

    /// `group` re-drafted from its first message with the literal words that vary between it
    /// and `message` made slots; nil when nothing varies or the widened draft does not read
    /// every message of the group and the new one.
    private func widen(_ group: DraftGroup, toRead message: Message, shape: MessageShape) -> DraftGroup? {
        let runs = group.shape.varyingRuns(against: shape)
        guard !runs.isEmpty, let first = group.members.first else { return nil }
        let widened = group.generalized.widened(varying: runs)
        guard let skeleton = widened.skeleton,
              let candidate = draft(widened, for: first, skeleton: skeleton),
              candidate.reads(message),
              group.members.dropFirst().allSatisfy(candidate.reads) else { return nil }
        for member in group.members.dropFirst() { candidate.add(member) }
        candidate.add(message)
        return candidate
    }

    /// The richest pattern that compiles and reads `message` as intended.
    private func draft(_ generalized: GeneralizedMessage, for message: Message, skeleton: String) -> DraftGroup? {
        var captureSets: [Set<FieldName>] = [Set(generalized.fields)]
        var current = Set(generalized.fields)
        for field in Self.fallbackOrder where current.contains(field) {
            current.remove(field)
            captureSets.append(current)
        }
        var tried: Set<String> = []
        for captured in captureSets {
            guard let pattern = generalized.pattern(capturing: captured), tried.insert(pattern).inserted else { continue }
            let parser = DraftParser(id: Self.probeID, direction: generalized.direction, kind: generalized.kind,
                                     channel: generalized.channel, accountType: generalized.accountType,
                                     pattern: pattern, covers: 1, examples: [DraftExample(message: message, expect: [])])
            let (engine, errors) = compiler.compile(DraftWriter.write(bank, parsers: [parser]))
            guard errors.isEmpty,
                  let transaction = engine.makeWorker().parse(message, asBank: bank.id).transaction,
                  transaction.rule == Self.probeID,
                  readsAsIntended(transaction, generalized, captured) else { continue }
            return DraftGroup(generalized: generalized, skeleton: skeleton, pattern: pattern, captured: captured,
                              first: message, engine: engine, bankID: bank.id)
        }
        return nil
    }

    /// Whether the amount, merchant and card or account the draft extracted are the spans the
    /// generalizer meant (a lazy merchant stopping early, a wrong amount, fail this).
    private func readsAsIntended(_ transaction: Transaction, _ generalized: GeneralizedMessage,
                                 _ captured: Set<FieldName>) -> Bool {
        guard let amountSlot = generalized.slot(for: .amount),
              let intended = try? amountNormalizer.normalize(amountSlot.raw),
              transaction.amount == intended.value else { return false }
        if captured.contains(.merchant), let slot = generalized.slot(for: .merchant) {
            let merchant = (try? MerchantNormalizer.normalize(slot.raw)).map(CardNumberMasker.mask)
            guard transaction.merchant == merchant else { return false }
        }
        if captured.contains(.last4), let slot = generalized.slot(for: .last4) {
            guard transaction.account?.last4 == (try? AccountMask.lastDigits(slot.raw)) else { return false }
        }
        return true
    }
}
