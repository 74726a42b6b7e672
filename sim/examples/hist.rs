//! Print the compiled program's operator histogram for a catalog block.
fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "ray_array".into());
    let m = (hw::find(&name).expect("block").build)().expect("builds");
    let s = sim::Simulator::new(&m).expect("compiles");
    println!("{}", s.debug_histogram());
}
