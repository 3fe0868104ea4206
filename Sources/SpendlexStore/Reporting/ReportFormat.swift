/// The formats of `spendlex report`.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// Aligned plain text for a terminal.
    case text
    /// One JSON document; amounts as exact decimal strings.
    case json
    /// One self-contained HTML page with inline SVG charts: no network, no external files.
    case html

    /// `report` in this format.
    public func render(_ report: LedgerReport, locale: String? = nil) -> String {
        switch self {
        case .text: ReportTextWriter(locale: locale).render(report)
        case .json: ReportJSONWriter().render(report)
        case .html: ReportHTMLWriter(locale: locale).render(report)
        }
    }
}
