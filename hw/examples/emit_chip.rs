//! Build every block of the move-generator chip and write its Verilog (default
//! directory `build/verilog/chip`), printing the node count of each.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "build/verilog/chip".into());
    let t = std::time::Instant::now();
    let m = hw::chip::generator::generator(false)?;
    println!("built movegen in {:?}", t.elapsed());
    let files = hw::verilog::write_design(&m, std::path::Path::new(&dir))?;
    for f in files {
        println!("{}", f.display());
    }
    Ok(())
}
