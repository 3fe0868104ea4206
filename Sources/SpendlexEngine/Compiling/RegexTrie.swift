/// Strings written out as one regex alternation shaped as a prefix tree: "A(?:ED|LL)|B(?:AM|DT)"
/// for AED, ALL, BAM, BDT. PCRE2 tries a list's every alternative at each place one could start;
/// a tree, only the branch of the next character. Used for a decision table's merchant keywords
/// (`KeywordTrie`) and for every currency form (`RuleCompiler.trieAlternation`).
///
/// A string is a sequence of regex pieces (a character escaped, a separator class); at its end
/// `end` is written (a mark naming it, or nothing). Where one string continues another ("US",
/// "US$"), the continuation is tried before the end, so the longer is found first.
struct RegexTrie {
    private final class Node {
        var children: [(piece: String, node: Node)] = []
        var ends: [String] = []
    }

    private let root = Node()

    var isEmpty: Bool { root.children.isEmpty && root.ends.isEmpty }

    /// Adds a string, as its regex pieces, ending with `end`.
    func insert(_ pieces: [String], end: String = "") {
        var node = root
        for piece in pieces {
            if let next = node.children.first(where: { $0.piece == piece })?.node {
                node = next
            } else {
                let next = Node()
                node.children.append((piece, next))
                node = next
            }
        }
        if !node.ends.contains(end) { node.ends.append(end) }
    }

    /// The alternation: children in the order they were first added, then the ends.
    func regex() -> String {
        Self.regex(root)
    }

    private static func regex(_ node: Node) -> String {
        var branches = node.children.map { $0.piece + regex($0.node) }
        if !node.ends.isEmpty {
            branches.append(node.ends.count == 1 ? node.ends[0] : "(?:" + node.ends.joined(separator: "|") + ")")
        }
        return branches.count == 1 ? branches[0] : "(?:" + branches.joined(separator: "|") + ")"
    }
}
