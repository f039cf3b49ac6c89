import Testing
import Wiring

/// How events, reports and errors name a service: one value, shown `Key` or `Key[name]`.
@Suite("ServiceID")
struct ServiceIDTests {
    @Test func aServiceIsShownAsItsKeyAndAVariantWithItsName() {
        #expect(ServiceID("NoteStore").description == "NoteStore")
        #expect(ServiceID("NoteStore", name: "archive").description == "NoteStore[archive]")
        #expect("\(ServiceID("NoteStore", name: "archive"))" == "NoteStore[archive]")
    }

    @Test func aLiteralNamesAServiceAsItIsShown() {
        let plain: ServiceID = "NoteStore"
        let variant: ServiceID = "NoteStore[archive]"
        #expect(plain == ServiceID("NoteStore") && plain.name == nil)
        #expect(variant == ServiceID("NoteStore", name: "archive"))
        // A bracket that does not close the literal is part of the key.
        let odd: ServiceID = "Note[Store"
        #expect(odd.key == "Note[Store" && odd.name == nil)
    }
}
