//! The simulator on the small real blocks, against models written in plain Rust.

use hw::blocks::{arbiter, counter, memory, ray_array};
use sim::Simulator;

#[test]
fn counter_counts_wraps_and_resets() {
    let m = counter::counter().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let (en, count, wrap) = (
        s.input("en").unwrap(),
        s.output("count").unwrap(),
        s.output("wrap").unwrap(),
    );
    s.reset();
    let mut model = 0u64;
    let mut rng = fastrand::Rng::with_seed(1);
    for _ in 0..1000 {
        let e = rng.bool();
        s.set(en, u64::from(e));
        assert_eq!(s.get(count), model);
        assert_eq!(s.get(wrap), u64::from(e && model == 255));
        s.step();
        if e {
            model = (model + 1) % 256;
        }
    }
    s.reset();
    assert_eq!(s.get(count), 0);
}

#[test]
fn arbiter_picks_lowest_request() {
    let m = arbiter::arbiter64().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let (req, valid, index, grant) = (
        s.input("req").unwrap(),
        s.output("valid").unwrap(),
        s.output("index").unwrap(),
        s.output("grant").unwrap(),
    );
    let mut rng = fastrand::Rng::with_seed(2);
    for k in 0..5000 {
        let r = match k % 3 {
            0 => rng.u64(..),
            1 => 1u64 << rng.u32(0..64),
            _ => rng.u64(..) & rng.u64(..) & rng.u64(..) & rng.u64(..),
        };
        let r = if k == 0 { 0 } else { r };
        s.set(req, r);
        assert_eq!(s.get(valid), u64::from(r != 0), "req {r:#x}");
        if r != 0 {
            assert_eq!(s.get(index), u64::from(r.trailing_zeros()), "req {r:#x}");
            assert_eq!(s.get(grant), 1 << r.trailing_zeros());
        } else {
            assert_eq!(s.get(grant), 0);
        }
    }
}

#[test]
fn memory_reads_and_writes() {
    let m = memory::memory16x8().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let ids: Vec<_> = ["waddr", "wdata", "we", "raddr"]
        .iter()
        .map(|n| s.input(n).unwrap())
        .collect();
    let (rdata, rdata_q) = (s.output("rdata").unwrap(), s.output("rdata_q").unwrap());
    let mut model = [0u64; 16];
    let mut prev_read = 0;
    let mut rng = fastrand::Rng::with_seed(3);
    for _ in 0..2000 {
        let (wa, wd, we, ra) = (rng.u64(0..16), rng.u64(0..256), rng.bool(), rng.u64(0..16));
        for (id, v) in ids.iter().zip([wa, wd, u64::from(we), ra]) {
            s.set(*id, v);
        }
        assert_eq!(s.get(rdata), model[ra as usize]);
        assert_eq!(s.get(rdata_q), prev_read);
        s.step();
        prev_read = model[ra as usize];
        if we {
            model[wa as usize] = wd;
        }
    }
}

/// Reference for the ray array: for every slider, walk each direction until blocked.
fn victims(occ: u64, slider: u64, enemy: u64) -> u64 {
    let mut attacked = 0u64;
    for sq in 0..64 {
        if slider >> sq & 1 == 0 {
            continue;
        }
        for (df, dr) in hw::grid::DIRECTIONS {
            let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let t = r * 8 + f;
                attacked |= 1 << t;
                if occ >> t & 1 == 1 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
    }
    attacked & enemy
}

#[test]
fn ray_array_finds_lowest_victim() {
    check_ray_block(&ray_array::ray_array().unwrap());
}

#[test]
fn ray_board_finds_lowest_victim() {
    check_ray_block(&hw::blocks::ray_board::ray_board().unwrap());
}

fn check_ray_block(m: &hw::Module) {
    let mut s = Simulator::new(m).unwrap();
    let ins: Vec<_> = ["load", "occ", "slider", "enemy"]
        .iter()
        .map(|n| s.input(n).unwrap())
        .collect();
    let (victim, found) = (s.output("victim").unwrap(), s.output("found").unwrap());
    s.reset();
    let mut rng = fastrand::Rng::with_seed(4);
    for k in 0..600 {
        let occ = if k % 2 == 0 {
            rng.u64(..) & rng.u64(..)
        } else {
            rng.u64(..) & rng.u64(..) & rng.u64(..) & rng.u64(..)
        };
        let slider = occ & rng.u64(..) & rng.u64(..);
        let enemy = occ & !slider & rng.u64(..);
        for (id, v) in ins.iter().zip([1, occ, slider, enemy]) {
            s.set(*id, v);
        }
        s.step(); // load the cells
        s.set(ins[0], 0);
        s.step(); // register the arbiter's choice
        let v = victims(occ, slider, enemy);
        assert_eq!(s.get(found), u64::from(v != 0));
        if v != 0 {
            assert_eq!(s.get(victim), u64::from(v.trailing_zeros()));
        }
    }
}

/// Evaluation is skipped when nothing the logic reads changed: inputs read only by
/// registers, registers that keep their value, memory writes. Check against a model
/// on a design that mixes all of them.
#[test]
fn skipped_evaluations_never_show_stale_values() {
    let m = hw::ModuleBuilder::new("mixed");
    let a = m.input("a", 8);
    let only_reg = m.input("only_reg", 8);
    let en = m.input("en", 1);
    let r = m.reg("r", 4);
    r.set_next(a.bits(0..4));
    r.set_enable(en);
    let q = m.reg("q", 8);
    q.set_next(only_reg);
    let mem = m.memory("mem", 4, 8);
    mem.write(a.bits(0..2), only_reg, en);
    m.output("y", (a.bits(4..8) + r).named("sum"));
    m.output("q", q);
    m.output("word", mem.read(a.bits(6..8)));
    let m = m.finish().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let ids: Vec<_> = ["a", "only_reg", "en"]
        .iter()
        .map(|n| s.input(n).unwrap())
        .collect();
    let (y, qo, word) = (
        s.output("y").unwrap(),
        s.output("q").unwrap(),
        s.output("word").unwrap(),
    );
    let (mut mr, mut mq, mut mm) = (0u64, 0u64, [0u64; 4]);
    let mut rng = fastrand::Rng::with_seed(9);
    let mut av = 0;
    for _ in 0..5000 {
        // `a` (read by the logic) changes in one cycle out of four.
        if rng.u8(..) < 64 {
            av = rng.u64(0..256);
        }
        let ov = rng.u64(0..256);
        let e = rng.u8(..) < 32;
        s.set(ids[0], av);
        s.set(ids[1], ov);
        s.set(ids[2], u64::from(e));
        assert_eq!(s.get(y), ((av >> 4) + mr) & 15);
        assert_eq!(s.get(qo), mq);
        assert_eq!(s.get(word), mm[(av >> 6) as usize]);
        s.step();
        if e {
            mr = av & 15;
            mm[(av & 3) as usize] = ov;
        }
        mq = ov;
    }
}

/// The tournament election on 32 cells with 5-bit priorities, against the first of the
/// highest in plain Rust.
#[test]
fn tree_election_picks_the_first_of_the_highest() {
    let m = hw::ModuleBuilder::new("elect32");
    let alive_bus = m.input("alive", 32);
    let prio_bus = m.input("prio", 160);
    let alive: Vec<hw::Signal> = (0..32).map(|i| alive_bus.bit(i)).collect();
    let prio: Vec<hw::Signal> = (0..32).map(|i| prio_bus.bits(5 * i..5 * i + 5)).collect();
    let (index, present) = hw::gates::elect_tree(&alive, &prio);
    m.output("index", index);
    m.output("present", present);
    let module = m.finish().unwrap();
    let mut s = Simulator::new(&module).unwrap();
    let (a_in, p_in, index, present) = (
        s.input("alive").unwrap(),
        s.input("prio").unwrap(),
        s.output("index").unwrap(),
        s.output("present").unwrap(),
    );
    let mut rng = fastrand::Rng::with_seed(3);
    for k in 0..20_000 {
        let a = match k % 4 {
            0 => 0,
            1 => 1u64 << rng.u32(0..32),
            _ => rng.u64(..) & rng.u64(..) & 0xffff_ffff,
        };
        // Few distinct priorities, so that ties are common.
        let spread = if k % 2 == 0 { 4 } else { 32 };
        let p: Vec<u64> = (0..32).map(|_| rng.u64(0..spread)).collect();
        let prio_bits: Vec<bool> = p
            .iter()
            .flat_map(|v| (0..5).map(move |b| v >> b & 1 == 1))
            .collect();
        s.set(a_in, a);
        s.set_bits(p_in, &hw::Bits::from_bools(&prio_bits));
        let want = (0..32)
            .filter(|&i| a >> i & 1 == 1)
            .max_by_key(|&i| (p[i], std::cmp::Reverse(i)));
        assert_eq!(s.get(present), u64::from(want.is_some()));
        assert_eq!(
            s.get(index),
            want.unwrap_or(0) as u64,
            "alive {a:#x} prio {p:?}"
        );
    }
}

/// `set_checked` takes a value of any number of words that fits the input, and refuses
/// one with a bit at or above its width: a value of fewer words than a wide input
/// panicked.
#[test]
fn set_checked_takes_any_width_that_fits() {
    let b = hw::ModuleBuilder::new("wide");
    let x = b.input("x", 100);
    b.output("y", x);
    let m = b.finish().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let y = s.output("y").unwrap();
    s.set_checked("x", &hw::Bits::from_u64(5, 8)).unwrap();
    assert_eq!(s.get_bits(y), hw::Bits::from_u64(5, 100));
    let top = hw::Bits::from_words(&[0, 1 << 35], 100);
    s.set_checked("x", &top).unwrap();
    assert_eq!(s.get_bits(y), top);
    for (words, width) in [(&[0, 1 << 36][..], 128), (&[0, 0, 1][..], 160)] {
        let e = s.set_checked("x", &hw::Bits::from_words(words, width));
        assert!(matches!(e, Err(sim::SimError::TooWide { .. })), "{e:?}");
    }
    // Wider in words, but only zeros above the input's width.
    s.set_checked("x", &hw::Bits::from_words(&[7, 0, 0], 192))
        .unwrap();
    assert_eq!(s.get_bits(y), hw::Bits::from_u64(7, 100));
    let narrow = hw::ModuleBuilder::new("narrow");
    let x = narrow.input("x", 3);
    narrow.output("y", x);
    let mut s = Simulator::new(&narrow.finish().unwrap()).unwrap();
    s.set_checked("x", &hw::Bits::from_u64(7, 64)).unwrap();
    assert!(s.set_checked("x", &hw::Bits::from_u64(8, 64)).is_err());
}
