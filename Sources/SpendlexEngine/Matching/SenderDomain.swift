/// What an e-mail sender's address or an app's package name says about where the message comes from.
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
        return countryCode(ofDomainLabels: domain.split(separator: ".").reversed())
    }

    /// The country whose top-level domain begins an app's package name, the reversed domain a
    /// notification names its app by ("mx.openbank.modelbank" is openbank.mx: "MX";
    /// "ar.com.bancar.uala" "AR"), or nil: not a package name ("Mercado Pago", "VM-HDFCBK"), a
    /// generic domain ("com.nu.production"), or a vanity one without its registry's second level.
    static func countryCode(ofAppPackage sender: String) -> String? {
        guard isAppPackage(sender) else { return nil }
        return countryCode(ofDomainLabels: sender.split(separator: "."))
    }

    /// Whether a sender is an app's package name: two or more dot-separated labels of ASCII letters,
    /// digits and underscores, each starting with a letter, and no other character.
    static func isAppPackage(_ sender: String) -> Bool {
        let labels = sender.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            guard let first = label.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
            return label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
        }
    }

    /// The country of a domain given top-level label first.
    private static func countryCode<Labels: Collection<Substring>>(ofDomainLabels labels: Labels) -> String? {
        guard labels.count >= 2, let top = labels.first, top.count == 2,
              top.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) else { return nil }
        let lower = top.lowercased()
        if vanityTopLevels.contains(Substring(lower)) {
            guard labels.count >= 3, registrySecondLevels.contains(Substring(labels.dropFirst().first!.lowercased())) else { return nil }
        }
        return lower == "uk" ? "GB" : lower.uppercased()
    }
}
