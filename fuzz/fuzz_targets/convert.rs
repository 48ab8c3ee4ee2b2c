//! Arbitrary nested Python values (built from the input bytes) ↔ canonical JSON.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    toolplane::sandbox::fuzzing::convert_round_trip(data);
});
