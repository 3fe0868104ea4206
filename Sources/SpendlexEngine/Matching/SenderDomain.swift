/// What an e-mail sender's address says about where the message comes from.
enum SenderDomain {
    /// Country-code top-level domains sold for their letters, which say nothing about a country
    /// on their own (".co" for "company", ".io", ".me", ".tv", ...): read only under a second level
    /// that their registries keep for their own country ("bancolombia.com.co").
    static let vanityTopLevels: Set<Substring> = [
        "ac", "ai", "as", "bz", "cc", "co", "fm", "gd", "gg", "gl", "im", "io", "je", "la", "ly", "me",
        "ms", "nu", "sh", "so", "st", "to", "tv", "vc", "ws",
    ]
    static let registrySecondLevels: Set<Substring> = ["com", "net", "org", "gov", "gob", "edu", "co", "ac", "or", "ne"]

    /// The ISO 3166-1 alpha-2 code of the country whose top-level domain an e-mail sender's address
    /// ends in ("Tenpo <no-reply@tenpo.cl>" gives "CL", "alerts@hdfcbank.co.in" "IN", "x@bank.co.uk"
    /// "GB"), or nil: no address, a generic domain (.com, .net), or a vanity one. IANA's country-code
    /// domains are ISO 3166 codes, but for the United Kingdom's ".uk".
    static func countryCode(ofEmailSender sender: String) -> String? {
        guard let at = sender.lastIndex(of: "@") else { return nil }
        let domain = sender[sender.index(after: at)...].prefix { $0 != ">" && $0 != " " && $0 != ")" }
        let labels = domain.split(separator: ".")
        guard labels.count >= 2, let top = labels.last, top.count == 2,
              top.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return nil }
        let lower = top.lowercased()
        if vanityTopLevels.contains(Substring(lower)) {
            guard labels.count >= 3, registrySecondLevels.contains(Substring(labels[labels.count - 2].lowercased())) else { return nil }
        }
        return lower == "uk" ? "GB" : lower.uppercased()
    }
}
