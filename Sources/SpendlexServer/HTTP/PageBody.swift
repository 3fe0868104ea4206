/// One page of a listing: its items under `itemsKey` ("transactions", "hits"), how many there are
/// in all, the page's `limit` and `offset`, and the next page's offset (null on the last page).
struct PageBody<Item: Encodable>: Encodable {
    let itemsKey: String
    let items: [Item]
    let total: Int
    let limit: Int
    let offset: Int

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(items, forKey: Key(stringValue: itemsKey))
        try c.encode(total, forKey: Key(stringValue: "total"))
        try c.encode(limit, forKey: Key(stringValue: "limit"))
        try c.encode(offset, forKey: Key(stringValue: "offset"))
        let next = offset + items.count < total ? offset + items.count : nil
        try c.encode(next, forKey: Key(stringValue: "next_offset"))
    }
}
