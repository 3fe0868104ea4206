import Foundation
import SpendlexEngine

extension CategoryModel {
    /// How well the model would categorize what it has not seen, by k-fold cross-validation.
    public struct Evaluation: Sendable {
        /// Per label: examples, and those predicted right.
        public struct LabelScore: Sendable {
            public var label: Label
            public var examples: Int
            public var correct: Int
            public var accuracy: Double { examples == 0 ? 0 : Double(correct) / Double(examples) }
        }

        public var folds: Int
        public var examples: Int
        /// Examples predicted right, whatever the probability.
        public var correct: Int
        /// Examples predicted at or above the threshold, and those of them right.
        public var confident: Int
        public var confidentCorrect: Int
        public var threshold: Double
        public var labels: [LabelScore]
        /// The most frequent mistakes: the true label, the predicted one, how often.
        public var confusions: [(actual: Label, predicted: Label, count: Int)]
        /// Per threshold (0.5, 0.6, ... 0.9): the share it would categorize, and the share of those right.
        public var byThreshold: [(threshold: Double, coverage: Double, accuracy: Double)] = []

        public var accuracy: Double { examples == 0 ? 0 : Double(correct) / Double(examples) }
        /// The share of examples the model would categorize (at or above the threshold).
        public var coverage: Double { examples == 0 ? 0 : Double(confident) / Double(examples) }
        /// The accuracy of those it would categorize.
        public var confidentAccuracy: Double { confident == 0 ? 0 : Double(confidentCorrect) / Double(confident) }
    }

    /// `examples` split into `folds` parts by `group` (a merchant's examples all in one part, so
    /// that each part is scored on merchants the rest never showed the model: the case it is for,
    /// a merchant no table names), each part scored by a model trained on the others.
    public static func evaluate(_ examples: [(group: String, example: Example)], folds: Int, threshold: Double) -> Evaluation {
        let folds = max(2, folds)
        // The same split on every run and machine: a stable hash of the group.
        func fold(of group: String) -> Int {
            Int((UInt64(StableHash.hex(parts: [group]), radix: 16) ?? 0) % UInt64(folds))
        }
        let assigned = examples.map { fold(of: $0.group) }
        var scores: [Label: (examples: Int, correct: Int)] = [:]
        var confusions: [Label: [Label: Int]] = [:]
        var correct = 0, confident = 0, confidentCorrect = 0
        var scored: [(probability: Double, right: Bool)] = []
        for part in 0..<folds {
            let training = examples.indices.filter { assigned[$0] != part }.map { examples[$0].example }
            let testing = examples.indices.filter { assigned[$0] == part }.map { examples[$0].example }
            guard !training.isEmpty, !testing.isEmpty else { continue }
            let model = CategoryModel(examples: training)
            for example in testing {
                guard let prediction = model.predict(example.features) else { continue }
                let right = prediction.label == example.label
                scored.append((prediction.probability, right))
                scores[example.label, default: (0, 0)].examples += 1
                if right {
                    correct += 1
                    scores[example.label, default: (0, 0)].correct += 1
                } else {
                    confusions[example.label, default: [:]][prediction.label, default: 0] += 1
                }
                if prediction.probability >= threshold {
                    confident += 1
                    if right { confidentCorrect += 1 }
                }
            }
        }
        var labelScores: [Evaluation.LabelScore] = scores.map { label, score in
            Evaluation.LabelScore(label: label, examples: score.examples, correct: score.correct)
        }
        labelScores.sort { a, b in a.examples != b.examples ? a.examples > b.examples : a.label.description < b.label.description }
        var mistakes: [(actual: Label, predicted: Label, count: Int)] = []
        for (actual, predicted) in confusions {
            for (label, count) in predicted { mistakes.append((actual: actual, predicted: label, count: count)) }
        }
        mistakes.sort { a, b in a.count != b.count ? a.count > b.count : a.actual.description < b.actual.description }
        var evaluation = Evaluation(folds: folds, examples: scores.values.reduce(0) { $0 + $1.examples }, correct: correct,
                                    confident: confident, confidentCorrect: confidentCorrect, threshold: threshold,
                                    labels: labelScores, confusions: Array(mistakes.prefix(10)))
        evaluation.byThreshold = [0.5, 0.6, 0.7, 0.8, 0.9].map { cut in
            let taken = scored.filter { $0.probability >= cut }
            return (cut, scored.isEmpty ? 0 : Double(taken.count) / Double(scored.count),
                    taken.isEmpty ? 0 : Double(taken.filter(\.right).count) / Double(taken.count))
        }
        return evaluation
    }
}

extension CategoryModel.Evaluation {
    /// The evaluation as text: overall accuracy, coverage at the threshold, per label, confusions.
    public func text() -> String {
        func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
        var out = "\(folds)-fold accuracy on merchants each fold never saw: \(percent(accuracy)) of \(examples) transactions\n"
        out += "at probability \(String(format: "%.2f", threshold)) or more: \(percent(coverage)) categorized, "
            + "\(percent(confidentAccuracy)) of them right\n"
        out += "by threshold: " + byThreshold.map {
            "\(String(format: "%.1f", $0.threshold)): \(percent($0.coverage)) categorized, \(percent($0.accuracy)) right"
        }.joined(separator: "; ") + "\n"
        out += "per category:\n"
        for score in labels {
            out += "  \(score.label): \(percent(score.accuracy)) of \(score.examples)\n"
        }
        if !confusions.isEmpty {
            out += "most confused:\n"
            for confusion in confusions {
                out += "  \(confusion.actual) taken for \(confusion.predicted): \(confusion.count)\n"
            }
        }
        return out
    }
}
