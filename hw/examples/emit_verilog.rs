//! Write the Verilog of every named design (generic blocks and chip units) into a directory (default `build/verilog`).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "build/verilog".into());
    for block in hw::catalog() {
        let m = (block.build)()?;
        let d = std::path::Path::new(&dir).join(block.name);
        let files = hw::verilog::write_design(&m, &d)?;
        println!("{}: {} files in {}", block.name, files.len(), d.display());
    }
    Ok(())
}
