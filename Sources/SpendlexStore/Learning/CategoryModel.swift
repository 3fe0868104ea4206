import Foundation
import SpendlexEngine
import SpendlexRules

/// A category model learned from the person's own ledger, for the merchants no decision-table
/// row names: multinomial naive Bayes over a transaction's merchant words and character
/// trigrams, its bank, channel, direction and kind, the size of its amount and its day of the week.
///
/// Why naive Bayes, written here: it trains in one pass of counting (a ledger of 100,000
/// transactions in well under a second, so it is simply trained again from the ledger whenever it
/// is used, which makes every correction count at once), needs no tuning, and explains itself:
/// each feature's pull toward the chosen category is a log-ratio that `explain` prints. No Swift
/// library for it is kept up (CreateML is Apple-only); the arithmetic is twenty lines.
///
/// Training examples are the ledger's categorized transactions: a person's own choice (an edit)
/// weighs `userWeight` times a decision-table row's. The label is the category and subcategory together.
public struct CategoryModel: Sendable {
    /// A label: a category and its subcategory.
    public struct Label: Sendable, Hashable, CustomStringConvertible {
        public var category: String
        public var subcategory: String?

        public init(category: String, subcategory: String?) {
            self.category = category
            self.subcategory = subcategory
        }

        public var description: String { subcategory.map { "\(category) / \($0)" } ?? category }
    }

    /// One training example.
    public struct Example: Sendable {
        public var features: [String]
        public var label: Label
        public var weight: Double

        public init(features: [String], label: Label, weight: Double) {
            self.features = features
            self.label = label
            self.weight = weight
        }
    }

    /// What the model says about a transaction.
    public struct Prediction: Sendable, Equatable {
        public var label: Label
        /// The posterior probability of `label`, 0...1.
        public var probability: Double
        /// The features that pulled most toward `label` against the runner-up, strongest first,
        /// each with its pull (a difference of log-likelihoods, in nats).
        public var evidence: [(feature: String, pull: Double)]
        /// The runner-up label, when there is one.
        public var runnerUp: Label?

        public static func == (a: Prediction, b: Prediction) -> Bool {
            a.label == b.label && a.probability == b.probability && a.runnerUp == b.runnerUp
                && a.evidence.map(\.feature) == b.evidence.map(\.feature)
        }
    }

    /// How much more a person's own category counts than a decision table's.
    public static let userWeight = 3.0
    /// Below this probability the model's guess is not used: the transaction stays uncategorized
    /// and is marked for review.
    /// 0.7: on a generated ledger of unseen merchants (CategoryModelTests), every guess this sure
    /// was right, and three in five were this sure; at 0.5, 86% were right.
    public static let defaultThreshold = 0.7
    /// Laplace smoothing: what an unseen feature counts in every label.
    static let smoothing = 1.0
    /// How much the scores are softened into probabilities (1: naive Bayes's own).
    static let temperature = 2.0

    /// The labels, in a fixed order.
    public let labels: [Label]
    /// Per label: the weight of its examples, and the summed weights of each feature.
    private let examplesWeight: [Double]
    private let featureWeights: [[String: Double]]
    private let featureTotals: [Double]
    /// Every feature seen in training.
    private let vocabularySize: Int
    /// Per feature, how much it tells labels apart, 0...1: 1 for a feature seen with one label, a
    /// half with two, and so on ("SRI BALAJI" names a pharmacy, a grocer and a garage alike). Not
    /// scaled by the number of labels, so that a new label (a person's first "Education") changes
    /// the weight of its own features only.
    private let specificity: [String: Double]
    /// The number of examples it was trained on.
    public let exampleCount: Int

    /// Trains a model one example at a time, keeping only the counts: a ledger's examples are
    /// read from a cursor, never all held (a million stored SMS held 300 MiB of them).
    public struct Trainer {
        private var index: [Label: Int] = [:]
        fileprivate var labels: [Label] = []
        fileprivate var examplesWeight: [Double] = []
        fileprivate var featureWeights: [[String: Double]] = []
        /// Per label, its features' weights summed as they come: a sum over a dictionary's values
        /// follows its hashing, which Swift seeds anew in every process, and the last digits of a
        /// probability differed from run to run (522 of 15,651 on 100,000 stored SMS).
        fileprivate var featureTotals: [Double] = []
        /// The examples added.
        public private(set) var count = 0

        public init() {}

        /// Counts one example.
        public mutating func add(_ example: Example) {
            let i = index[example.label] ?? {
                index[example.label] = labels.count
                labels.append(example.label)
                examplesWeight.append(0)
                featureWeights.append([:])
                featureTotals.append(0)
                return labels.count - 1
            }()
            examplesWeight[i] += example.weight
            for feature in example.features {
                featureWeights[i][feature, default: 0] += example.weight
                featureTotals[i] += example.weight
            }
            count += 1
        }

        /// The model of the examples added.
        public var model: CategoryModel { CategoryModel(self) }
    }

    /// A model trained on `examples`.
    public init(examples: [Example]) {
        var trainer = Trainer()
        for example in examples { trainer.add(example) }
        self.init(trainer)
    }

    private init(_ trainer: Trainer) {
        labels = trainer.labels
        examplesWeight = trainer.examplesWeight
        featureWeights = trainer.featureWeights
        featureTotals = trainer.featureTotals
        var labelsOf: [String: Int] = [:]
        for weights in featureWeights { for feature in weights.keys { labelsOf[feature, default: 0] += 1 } }
        // Every feature seen is some label's.
        vocabularySize = labelsOf.count
        specificity = labelsOf.mapValues { 1 / Double($0) }
        exampleCount = trainer.count
    }

    /// The most likely label of a transaction with `features`, or nil with nothing learned.
    public func predict(_ features: [String]) -> Prediction? {
        guard !labels.isEmpty else { return nil }
        let total = examplesWeight.reduce(0, +)
        // Features no example had say nothing about any label: left out, so that a merchant the
        // ledger never saw gets the priors (and a low probability), not a confident guess.
        let known = features.filter { feature in featureWeights.contains { $0[feature] != nil } }
        var scores = [Double](repeating: 0, count: labels.count)
        for i in labels.indices {
            var score = log(examplesWeight[i] / total)
            let denominator = featureTotals[i] + Self.smoothing * Double(vocabularySize)
            for feature in known {
                score += weight(of: feature) * log(((featureWeights[i][feature] ?? 0) + Self.smoothing) / denominator)
            }
            scores[i] = score
        }
        let order = scores.indices.sorted { scores[$0] > scores[$1] }
        let best = order[0]
        let top = scores[best]
        // Naive Bayes counts correlated features as independent and is surer than it is right:
        // the scores are softened (divided by `temperature`) before they become probabilities.
        let sum = scores.reduce(0) { $0 + exp(($1 - top) / Self.temperature) }
        // A merchant the ledger never showed it (none of its words known, and not half of its
        // letter groups) leaves only the bank, channel, amount and day, which say little about what
        // was bought; a model that knows one label has nothing to choose between. Either way the
        // guess is kept, never above even odds, so it is never the category on its own.
        let letters = features.filter { $0.hasPrefix("g:") }
        let knownLetters = known.filter { $0.hasPrefix("g:") }
        let knowsMerchant = known.contains { $0.hasPrefix("w:") || $0.hasPrefix("l:") }
            || (!letters.isEmpty && knownLetters.count * 2 >= letters.count)
        let probability = knowsMerchant && labels.count > 1 ? 1 / sum : min(1 / sum, 0.5)
        let runnerUp = order.count > 1 ? order[1] : nil
        var evidence: [(String, Double)] = []
        if let runnerUp {
            let (a, b) = (best, runnerUp)
            let da = featureTotals[a] + Self.smoothing * Double(vocabularySize)
            let db = featureTotals[b] + Self.smoothing * Double(vocabularySize)
            evidence = known.map { feature in
                (feature, weight(of: feature) * (log(((featureWeights[a][feature] ?? 0) + Self.smoothing) / da)
                    - log(((featureWeights[b][feature] ?? 0) + Self.smoothing) / db)))
            }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }
        }
        return Prediction(label: labels[best], probability: probability, evidence: Array(evidence.prefix(6)),
                          runnerUp: runnerUp.map { labels[$0] })
    }

    /// How much a feature counts: its specificity (a feature every label has says nothing), and
    /// a merchant's letter groups a third each, as they overlap (a word of six letters gives six):
    /// naive Bayes would otherwise count one word many times over and be sure of anything.
    func weight(of feature: String) -> Double {
        (specificity[feature] ?? 1) * (feature.hasPrefix("g:") ? 1.0 / 3 : 1)
    }

    /// The features of a transaction: `w:` merchant words, `l:` its last word, `g:` merchant trigrams, `b:` bank,
    /// `c:` channel, `k:` direction and kind, `a:` amount size (a half-decade: 100 to 316 is
    /// `a:4`), `d:` day of the week (1 is Monday).
    public static func features(merchant: String?, bank: String?, channel: String?, direction: Direction?,
                                kind: TransactionKind?, amount: Decimal?, date: LocalDate?) -> [String] {
        var features: [String] = []
        if let merchant {
            let folded = merchant.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
                .uppercased()
            let words = folded.unicodeScalars.split { !CharacterSet.alphanumerics.contains($0) }
                .map { String(String.UnicodeScalarView($0)) }
                .filter { $0.count >= 2 && !$0.allSatisfy(\.isNumber) }
            features += words.map { "w:" + $0 }
            // A shop's last word is often what it is ("NEW CITY PHARMACY", "ROYAL FILLING STATION").
            if let last = words.last, words.count > 1 { features.append("l:" + last) }
            for word in words {
                let padded = Array("^" + word + "$")
                guard padded.count >= 3 else { continue }
                for start in 0...(padded.count - 3) { features.append("g:" + String(padded[start..<start + 3])) }
            }
        }
        if let bank { features.append("b:" + bank) }
        if let channel { features.append("c:" + channel) }
        features.append("k:" + (direction?.rawValue ?? "-") + "/" + (kind?.rawValue ?? "-"))
        if let amount, amount > 0 {
            let value = NSDecimalNumber(decimal: amount).doubleValue  // a bucket only: no money is computed in floating point
            features.append("a:\(Int((log10(value) * 2).rounded(.down)))")
        }
        if let date { features.append("d:\((date.daysSinceEpoch + 3) % 7 + 1)") }  // 1970-01-01 was a Thursday
        return features
    }
}

extension StoredTransaction {
    /// This transaction's features for the category model.
    public var modelFeatures: [String] {
        CategoryModel.features(merchant: merchant, bank: bank, channel: channel, direction: direction, kind: kind,
                               amount: amount, date: date)
    }
}
