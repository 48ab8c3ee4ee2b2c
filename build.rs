// The shims in stdlib-shims/ are frozen into the binary by a proc macro, which cargo does not track:
// rerun (and so rebuild the crate) when they change.
fn main() {
    println!("cargo:rerun-if-changed=stdlib-shims");
}
