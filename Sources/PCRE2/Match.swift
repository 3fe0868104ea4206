/// One successful match: the whole-match range and every capture group's range,
/// all as UTF-8 byte offsets into the subject that was matched.
public struct Match: Sendable, Equatable, Hashable {
    /// The whole match, as UTF-8 byte offsets into the subject (same as `groups[0]`).
    public let range: Range<Int>

    /// Capture group ranges as UTF-8 byte offsets; index 0 is the whole match,
    /// index *n* is group *n*, `nil` for a group that did not participate.
    /// `groups.count == pattern.captureCount + 1`.
    public let groups: [Range<Int>?]

    /// Creates a match from its group ranges (UTF-8 byte offsets); `groups[0]` must be set.
    public init(groups: [Range<Int>?]) {
        precondition(!groups.isEmpty && groups[0] != nil, "group 0 (the whole match) must be set")
        self.range = groups[0]!
        self.groups = groups
    }

    /// The UTF-8 byte range of capture group `group` (0 = whole match);
    /// `nil` when the group is unset or `group` is outside `0..<groups.count`.
    public subscript(group: Int) -> Range<Int>? {
        groups.indices.contains(group) ? groups[group] : nil
    }
}

extension String {
    /// The substring at a UTF-8 byte range (as returned by ``Match``).
    ///
    /// `range` is in UTF-8 byte offsets and must lie within `0...utf8.count`.
    /// A range that cuts through a multi-byte character yields U+FFFD for the
    /// partial character instead of trapping.
    public func utf8Slice(_ range: Range<Int>) -> String {
        var text = self  // a cheap reference copy; withUTF8 needs a `var`
        return text.withUTF8 { bytes in
            precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count,
                         "UTF-8 byte range \(range) is outside 0..<\(bytes.count)")
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }
}
