//! Co-simulate ray_array on many random cycles in each back end and print the reports.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cycles: usize = std::env::args().nth(1).map_or(Ok(20_000), |s| s.parse())?;
    let m = hw::blocks::ray_array::ray_array()?;
    let stim = testbench::Stimulus::random(&m, cycles, 5);
    let expected = testbench::simulate(&m, &stim)?;
    for b in testbench::Backend::ALL {
        let dir = std::path::PathBuf::from("build/cosim-scale").join(b.name());
        let r = testbench::cosim_expected(&m, &stim, &expected, b, &dir)?;
        println!("{r}");
    }
    Ok(())
}
