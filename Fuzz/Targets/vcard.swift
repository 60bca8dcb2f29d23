@testable import PwnVaultCore
import Foundation

// The vCard reader (`VCardParser`) and the import plan built from what it reads.
//
// Invariants:
// - the parser either returns what it read or throws a `VCardError` (which holds line numbers only, never
//   text from the file), and any line it names (an error, a skip, a code-page note) exists in the file;
// - a file it accepts holds a contact, read or skipped;
// - every contact's line and every address's line is a line of the file, in file order;
// - every label of the plan is one clean line of at most the label length, carrying no account;
// - every address the plan adds parses to itself and is counted once; invalid and repeated entries
//   account for the rest.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let options = input.byte()
    let bytes = input.rest()
    // Line ends of any kind start lines; `+ 2` allows a line past a final line end and UTF-16 input.
    let lineLimit = bytes.count + 2

    let reading: VCardReading
    do {
        reading = try VCardParser.read(bytes, locale: options & 2 == 2 ? "ru_RU.KOI8-R" : nil)
    } catch let error as VCardError {
        let message = error.message
        invariant(!message.isEmpty, "an error without a message")
        for number in lineNumbers(in: error) {
            invariant(number >= 1 && number <= lineLimit, "an error names line \(number), outside the file")
        }
        return 0
    } catch {
        invariant(false, "the parser threw something other than a VCardError: \(type(of: error))")
        return 0
    }
    let contacts = reading.contacts
    invariant(!contacts.isEmpty || !reading.skippedContacts.isEmpty, "a file without contacts was accepted")
    for skip in reading.skippedLines + reading.skippedContacts {
        invariant(skip.line >= 1 && skip.line <= skip.lastLine && skip.lastLine <= lineLimit, "a skip names lines outside the file")
        for number in lineNumbers(in: skip.problem) {
            invariant(number >= 1 && number <= lineLimit, "a skip's reason names line \(number), outside the file")
        }
    }
    for line in reading.codePage?.lines ?? [] { invariant(line >= 1 && line <= lineLimit, "a code-page line outside the file") }
    var previous = 0
    for card in contacts {
        invariant(card.line > previous && card.line <= lineLimit, "contact lines out of order")
        for address in card.emails + card.phones {
            invariant(address.line >= card.line && address.line <= lineLimit, "an address outside its card")
            invariant(!address.value.isEmpty, "an empty address was kept")
        }
        previous = card.line
    }

    let maxLength = Int(options >> 1) % (AccountLabel.maxLength + 8)
    // scripts/fuzz.sh does not build libPwnVaultPhone.so: with phones, the plan may stop at the first one.
    guard let plan = try? ContactImportPlan(contacts: contacts, includePhones: options & 1 == 1, phones: .internationalOnly,
                                            maxLabelLength: maxLength) else { return 0 }
    var keys = Set<AccountKey>()
    for contact in plan.contacts {
        if let label = contact.label {
            invariant(label.text.count <= max(maxLength, 0), "a label longer than asked for")
            invariant(Sanitizer.singleLine(label.text) == label.text, "a label holds control characters or line breaks")
            invariant((try? AccountLabel.screened(label.text)) == label, "a label that the screen would refuse")
        }
        invariant(!contact.addresses.isEmpty, "a planned contact without addresses")
        for address in contact.addresses {
            invariant(keys.insert(address.account.dedupKey).inserted, "an address planned twice")
            let again = try? AccountParser.parse(address.account.entered, phones: .internationalOnly)
            invariant(again == address.account, "a planned address does not parse to itself")
        }
    }
    let tried = contacts.reduce(0) { $0 + $1.emails.count + (options & 1 == 1 ? $1.phones.count : 0) }
    invariant(plan.addresses.count + plan.invalid.count + plan.repeated.count == tried,
              "addresses lost between the file and the plan")
    return 0
}

/// The line numbers an error carries (every case but `tooLarge` holds only lines).
private func lineNumbers(in error: VCardError) -> [Int] {
    if case .tooLarge = error { return [] }
    func ints(_ value: Any) -> [Int] {
        if let n = value as? Int { return [n] }
        return Mirror(reflecting: value).children.flatMap { ints($0.value) }
    }
    return ints(error)
}
