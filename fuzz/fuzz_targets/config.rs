//! Arbitrary text as toolplane.toml: a Config or a one-line error naming the problem, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match toolplane::Config::from_toml_str(text) {
        Ok(config) => {
            config.validate().expect("a parsed config is valid");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
