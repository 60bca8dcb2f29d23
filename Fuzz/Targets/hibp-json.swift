@testable import PwnVaultCore
import Foundation

// The HIBP answer decoders: the breach catalog (`/breaches`, `/breachedaccount`), one breach
// (`/breach`), pastes (`/pasteaccount`) and the subscription status, as `HIBPClient.decode` reads them.
//
// Invariants:
// - each decoder returns a value or throws `HIBPError.malformedBody`, nothing else;
// - what decodes encodes (as the catalog cache writes it) and decodes back equal (pastes are only
//   decoded: they are vault data and not `Encodable`);
// - a catalog built from decoded breaches finds every breach by its name.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = data.map { Data(bytes: $0, count: size) } ?? Data()
    let response = HTTPResponse(status: 200, headers: [:], body: body)

    if let breaches: [Breach] = decoded(response) {
        roundTrip(breaches)
        let catalog = BreachCatalog(breaches: breaches, fetchedAt: Date(timeIntervalSince1970: 0))
        for breach in breaches {
            invariant(catalog.breach(named: breach.name)?.name.lowercased() == breach.name.lowercased(),
                      "the catalog does not find a breach by its name")
        }
        _ = catalog.search(BreachQuery())
    }
    if let breach: Breach = decoded(response) { roundTrip(breach) }
    if let pastes: [Paste] = decoded(response) { invariant(pastes.allSatisfy { $0.emailCount >= 0 }, "a paste with a negative address count") }
    if let status: SubscriptionStatus = decoded(response) { roundTrip(status) }
    return 0
}

private func decoded<T: Decodable>(_ response: HTTPResponse) -> T? {
    do {
        return try HIBPClient.decode(response) as T
    } catch let error as HIBPError {
        invariant(error == .malformedBody, "a decoder failed with \(error)")
        return nil
    } catch {
        invariant(false, "a decoder threw \(type(of: error))")
        return nil
    }
}

private func roundTrip<T: Codable & Equatable>(_ value: T) {
    guard let encoded = try? JSONEncoder().encode(value) else {
        invariant(false, "a decoded \(T.self) does not encode")
        return
    }
    let back = try? JSONDecoder().decode(T.self, from: encoded)
    invariant(back == value, "a \(T.self) changed over an encode and decode")
}
