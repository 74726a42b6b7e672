//! `antichip report` end to end on a small run: every section in the Markdown, the JSON
//! and four SVG plots, no exactness mismatch, speed-ups for every link and chip count
//! and for every position; and its bad arguments.

use std::process::Command;

fn antichip(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_antichip"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_small_report_has_every_section_plot_and_no_mismatch() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_small");
    let _ = std::fs::remove_dir_all(&dir);
    // No fairy-stockfish where it is looked for: the report says it played none.
    let out = Command::new(env!("CARGO_BIN_EXE_antichip"))
        .env("FAIRY_STOCKFISH", dir.join("no-fairy-stockfish-here"))
        .args([
            "report",
            "--out",
            dir.to_str().unwrap(),
            "--depth",
            "2",
            "--job-games",
            "1",
            "--won",
            "3",
            "--agreement",
            "3",
            "--games",
            "2",
            "--movetime",
            "5",
            "--chips",
            "4",
            "--also-mhz",
            "48,96",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    for section in [
        "## 1. Exactness",
        "## 2. Cycles per quiescence node",
        "## 3. Per job",
        "## 4. Speed-up",
        "| pcie | full width, 1 ply |",
        "| pcie | full width, 3 plies |",
        "Position by position, the chips (4 on the pcie link) taking full width, ",
        "## 5. Accuracy",
        "| chip4 | software |",
        "| chip4-nose | software-nose |",
        "No match against fairy-stockfish: it was not found at",
    ] {
        assert!(md.contains(section), "{section} missing:\n{md}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    // Section 5 counts agreement on the positions with a choice of move, and says how
    // many of the openings asked for those are.
    let asked = json["options"]["agreement_positions"].as_u64().unwrap();
    let kept = json["agreement_positions"].as_u64().unwrap();
    let head = if kept < asked {
        format!(
            "agrees with a 20x longer search (of {kept}; {kept} of {asked} openings leave more than one move) |"
        )
    } else {
        format!("agrees with a 20x longer search (of {kept}) |")
    };
    assert!(md.contains(&head), "{head} missing:\n{md}");
    let e = &json["exactness"];
    assert!(e["jobs"].as_u64().unwrap() > 100);
    for key in [
        "score_mismatches",
        "node_mismatches",
        "move_mismatches",
        "search_mismatches",
        "search_score_mismatches",
        "search_node_mismatches",
        "search_move_mismatches",
    ] {
        assert_eq!(e[key], 0, "{key}");
    }
    // 10 positions: reference against 1 chip and K chips, with quiescence jobs and
    // with full-width jobs of 1, 2 and 3 plies.
    assert_eq!(e["searches"], 80);
    let full = json["host_full_width_s"].as_array().unwrap();
    assert_eq!(full.len(), 3);
    for (plies, f) in full.iter().enumerate() {
        assert_eq!(f[0], plies + 1);
        assert!(f[1].as_f64().unwrap() > 0.0);
    }
    assert_eq!(json["options"]["quiescence_plies"], 6);
    assert!(json["host_with_chips_s"].as_f64().unwrap() > 0.0);
    // A job's modeled chip time counts the clocks of its load before its own cycles.
    let load_us =
        f64::from(hw::chip::qsearch::LOAD_CYCLES) / json["options"]["mhz"].as_f64().unwrap();
    let job_times = json["job_times"].as_array().unwrap();
    assert!(!job_times.is_empty());
    for j in job_times {
        assert!(j["chip_us"].as_f64().unwrap() > load_us, "{j}");
    }
    // Jobs used by the chip-equipped searches, and those the host's table answered.
    let used = json["jobs_used"].as_array().unwrap();
    assert!(used[1].as_u64().unwrap() <= used[0].as_u64().unwrap());
    assert!(used[0].as_u64().unwrap() > 0);
    // 5 links x 5 kinds of jobs x 7 chip counts.
    let speed_ups = json["speed_ups"].as_array().unwrap();
    assert_eq!(speed_ups.len(), 175);
    assert!(speed_ups.iter().any(|s| s["full_width"] == 3));
    for s in speed_ups {
        assert!(s["speed_up"].as_f64().unwrap() > 0.0, "{s}");
        // The wait is part of the modeled time, and the part before the awaited jobs
        // started part of the wait.
        let (wait, queued) = (
            s["wait_s"].as_f64().unwrap(),
            s["wait_queued_s"].as_f64().unwrap(),
        );
        assert!(wait <= s["modeled_s"].as_f64().unwrap() + 1e-12, "{s}");
        assert!((0.0..=wait + 1e-12).contains(&queued), "{s}");
    }
    assert!(
        md.contains(" on 4 chips the host waits for results "),
        "the wait's split missing:\n{md}"
    );
    // Position by position, for each number of full-width plies: 4 chips on PCIe, and
    // each row of section 4's figure is the sum of its positions'.
    let per = json["per_position"].as_array().unwrap();
    assert_eq!(per.len(), 30);
    let pcie4 = |plies: u64| {
        speed_ups
            .iter()
            .find(|s| s["link"] == "pcie" && s["chips"] == 4 && s["full_width"] == plies)
            .unwrap()
    };
    for plies in 1..=3 {
        let rows: Vec<_> = per.iter().filter(|p| p["full_width"] == plies).collect();
        assert_eq!(rows.len(), 10);
        let alone: f64 = rows
            .iter()
            .map(|p| p["host_alone_s"].as_f64().unwrap())
            .sum();
        assert!((alone - json["host_alone_s"].as_f64().unwrap()).abs() < 1e-6);
        let modeled: f64 = rows.iter().map(|p| p["modeled_s"].as_f64().unwrap()).sum();
        assert!((modeled - pcie4(plies)["modeled_s"].as_f64().unwrap()).abs() < 1e-9);
    }
    for p in per {
        assert!(p["host_nodes"].as_u64().unwrap() > 0, "{p}");
        assert!(p["chip_nodes"].as_u64().unwrap() > 0, "{p}");
        assert!(
            p["modeled_s"].as_f64().unwrap() >= p["host_s"].as_f64().unwrap(),
            "{p}"
        );
    }
    // The Markdown's table is that of the plies with the best speed-up on 4 chips on
    // PCIe (fewer plies first among equals), and lists each position once.
    let best = (1..=3u64)
        .fold((0, 0.0), |(bp, bs), p| {
            let s = pcie4(p)["speed_up"].as_f64().unwrap();
            if s > bs { (p, s) } else { (bp, bs) }
        })
        .0;
    let name = if best == 1 {
        "full width, 1 ply".to_string()
    } else {
        format!("full width, {best} plies")
    };
    assert!(
        md.contains(&format!(
            "Position by position, the chips (4 on the pcie link) taking {name} (of the full-width jobs, those of the best"
        )),
        "{md}"
    );
    // The same traces at each clock: Deep Blue's 24 MHz, the report's, 48 and 96; at
    // the report's own clock each line is section 4's on 4 chips on PCIe.
    let mhz = json["options"]["mhz"].as_f64().unwrap();
    let mut clocks = vec![24.0, mhz, 48.0, 96.0];
    clocks.sort_by(f64::total_cmp);
    clocks.dedup();
    let by_clock = json["clock_speed_ups"].as_array().unwrap();
    assert_eq!(by_clock.len(), clocks.len() * 5);
    for c in by_clock {
        assert!(clocks.contains(&c["mhz"].as_f64().unwrap()), "{c}");
        if c["mhz"].as_f64().unwrap() == mhz {
            let s = speed_ups
                .iter()
                .find(|s| {
                    s["link"] == "pcie"
                        && s["chips"] == 4
                        && s["full_width"] == c["full_width"]
                        && s["host_quiet"] == c["host_quiet"]
                })
                .unwrap();
            assert_eq!(s["modeled_s"], c["modeled_s"], "{c}");
        }
    }
    let header: Vec<String> = clocks.iter().map(|m| format!("{m} MHz")).collect();
    assert!(
        md.contains(&format!("| jobs | {} |", header.join(" | "))),
        "{md}"
    );
    let fen = per[0]["fen"].as_str().unwrap();
    assert_eq!(md.matches(&format!("| `{fen}` |")).count(), 1, "{md}");
    assert_eq!(json["matches"].as_array().unwrap().len(), 2);
    for plot in ["cycles.svg", "jobs.svg", "speedup.svg", "work.svg"] {
        let svg = std::fs::read_to_string(dir.join(plot)).unwrap();
        assert!(svg.starts_with("<svg") && svg.len() > 2000, "{plot}");
    }
    // The work plot draws the host's waits beside the chips' work.
    let work = std::fs::read_to_string(dir.join("work.svg")).unwrap();
    for legend in [
        "host waiting for results",
        "of it, for jobs not yet started",
    ] {
        assert!(work.contains(legend), "{legend} missing from work.svg");
    }
}

#[test]
fn bad_report_arguments_are_named() {
    for (args, what) in [
        (vec!["report", "--depth", "0"], "--depth"),
        (vec!["report", "--chips", "65"], "--chips"),
        (vec!["report", "--link", "carrier-pigeon"], "carrier-pigeon"),
        (vec!["report", "--mhz", "-3"], "--mhz"),
        (vec!["report", "--also-mhz", "30,0"], "--also-mhz"),
        (
            vec!["report", "--also-mhz", "1,2,3,4,5,6,7,8,9"],
            "--also-mhz",
        ),
        (
            vec!["report", "--quiescence-plies", "33"],
            "--quiescence-plies",
        ),
        (
            vec!["report", "--full-width-plies", "8"],
            "--full-width-plies",
        ),
        (
            vec!["report", "--games", "3"],
            "error: --games must be 0 or an even number (each opening is played twice, colours swapped), not 3\n",
        ),
    ] {
        // Written into the test's own directory, should an argument ever be taken.
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_bad");
        let mut args = args;
        args.extend(["--out", dir.to_str().unwrap()]);
        let out = antichip(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(what), "{args:?}: {stderr}");
    }
    // An output directory where a file is: named, before any work (it said "cannot
    // create FILE: File exists").
    let file = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_file");
    std::fs::write(&file, "x").unwrap();
    let out = antichip(&["report", "--games", "0", "--out", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: cannot write {}: it is a file, not a directory\n",
            file.display()
        )
    );
    // A directory that takes no file, and a report file that is a directory: named
    // before any work too (they failed after all of it).
    let out = antichip(&["report", "--games", "0", "--out", "/proc/self"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("error: cannot write /proc/self: "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report_dir_in_place");
    std::fs::create_dir_all(dir.join("speedup.svg")).unwrap();
    let out = antichip(&["report", "--games", "0", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: cannot write {}: it is a directory, not a file\n",
            dir.join("speedup.svg").display()
        )
    );
    assert!(out.stdout.is_empty());
}
