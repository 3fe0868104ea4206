import Foundation

/// Paths in the Spendlex repository, found from this source file's place so that benchmarks
/// work whatever the current directory (`swift package benchmark` runs them from elsewhere).
public enum Repository {
    /// The repository root: three folders above `Benchmarks/Sources/BenchmarkFixtures/`.
    public static let root: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // BenchmarkFixtures
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
            .deletingLastPathComponent()  // the repository
            .path
    }()

    /// The bundled bank rules.
    public static var rules: String { root + "/rules" }
    /// The bundled grammar fragments.
    public static var grammars: String { root + "/grammars" }
    /// `grammars/common.yaml`.
    public static var commonGrammar: String { grammars + "/common.yaml" }
    /// The rules for the reference corpus's 12 formats (`Benchmarks/rules`).
    public static var benchmarkRules: String { root + "/Benchmarks/rules" }
}
