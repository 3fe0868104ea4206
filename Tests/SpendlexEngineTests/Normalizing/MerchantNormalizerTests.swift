import Testing

@testable import SpendlexEngine

@Suite("MerchantNormalizer")
struct MerchantNormalizerTests {
    /// raw, cleaned.
    static let merchants: [(String, String)] = [
        ("CITY REALTY AND DEVELO", "CITY REALTY AND DEVELO"),
        ("  SampleMerchant Store  ", "SampleMerchant Store"),
        ("SampleMerchant\nStore", "SampleMerchant Store"),
        ("Sample\u{00A0}\u{00A0}Merchant\t Store", "Sample Merchant Store"),
        ("SAMPLE MERCHANT. Avl", "SAMPLE MERCHANT"),
        ("ONYX BAR.", "ONYX BAR"),
        ("PYU*SWIGGY FOOD on", "PYU*SWIGGY FOOD"),
        ("Pune Metro at", "Pune Metro"),
        ("RAZ*SampleFood via", "RAZ*SampleFood"),
        ("SampleCloud using", "SampleCloud"),
        ("DOMINOS PIZZA Ref", "DOMINOS PIZZA"),
        ("DOMINOS PIZZA Avl Bal", "DOMINOS PIZZA"),
        ("DOMINOS PIZZA. Avl Bal:", "DOMINOS PIZZA"),
        ("DOMINOS PIZZA. Avl Lmt", "DOMINOS PIZZA"),
        ("NETFLIX.COM Info", "NETFLIX.COM"),
        ("Mixed Case on AT", "Mixed Case"),
        ("Uber *Trip ;", "Uber *Trip"),
        ("TESCO STORES 2231, ", "TESCO STORES 2231"),
        ("ZARA -", "ZARA"),
        ("\"AMAZON\"", "AMAZON"),
        ("\u{201C}Zara Home\u{201D}", "Zara Home"),
        ("'REWE SAGT DANKE'", "REWE SAGT DANKE"),
        ("TRADER JOE'S #552", "TRADER JOE'S #552"),
        ("A.B. Traders", "A.B. Traders"),
        ("M/S A.B. MART", "M/S A.B. MART"),
        ("BIL*INFT*FFF0000000*", "BIL*INFT*FFF0000000*"),
        ("-Customer-", "Customer"),
        ("AMAZON.COM", "AMAZON.COM"),
        ("swiggy@icici", "swiggy@icici"),
        ("H&M INDIA", "H&M INDIA"),
        ("Info", "Info"),
        ("VIA Rail", "VIA Rail"),
        ("El Corte Inglés", "El Corte Inglés"),
        // Padding a card network's merchant field carries, and the dots of a cut field.
        ("..SUDARSHAN FAMILY_", "SUDARSHAN FAMILY"),
        ("Shopify*", "Shopify"),
        ("PAYU_", "PAYU"),
        // A closing initial and a company suffix keep their dot; a lone letter or word, or another
        // abbreviation, does not.
        ("Carlos Orbegoso L.", "Carlos Orbegoso L."),
        ("JO*L R.", "JO*L R."),
        ("L.", "L"),
        ("SAMPLE CO.", "SAMPLE CO."),
        ("Midland Bank Ltd.", "Midland Bank Ltd."),
        ("Sample Foods Sdn. Bhd.", "Sample Foods Sdn. Bhd."),
        ("Ltd.", "Ltd"),
        ("SAMPLE DEPT.", "SAMPLE DEPT"),
    ]

    @Test("merchants", arguments: merchants)
    func merchant(_ raw: String, _ expected: String) throws {
        #expect(try MerchantNormalizer.normalize(raw) == expected)
    }

    @Test("nothing left", arguments: ["", "   ", " . , ", "\"\"", "-", "\n\t", ";:"])
    func empty(_ raw: String) {
        #expect {
            _ = try MerchantNormalizer.normalize(raw)
        } throws: { error in
            (error as? FieldError)?.id == "merchant.empty"
        }
    }
}
