//! The walker block on its own: the simulated `chip_walker` netlist walks random
//! candidate sets with random priorities and tags in exactly the flat election's order
//! (highest priority, then lowest square), one winner per clock after the clock that
//! elects the rank leaders, with `more`, `square`, `tag` and `remaining` right on every
//! cycle, whatever the pattern of takes and reloads.

use hw::Bits;
use hw::chip::movegen::bitboard::elect;
use hw::chip::movegen::walker::walker;
use sim::Simulator;

#[test]
fn walker_follows_the_flat_election_cycle_for_cycle() {
    let m = walker().unwrap();
    let mut s = Simulator::new(&m).unwrap();
    let [load, cand, prios, tags, take] =
        ["load", "cand", "prios", "tags", "take"].map(|n| s.input(n).unwrap());
    let [ready, valid, grant, square, tag, more, remaining] = [
        "ready",
        "valid",
        "grant",
        "square",
        "tag",
        "more",
        "remaining",
    ]
    .map(|n| s.output(n).unwrap());
    let mut rng = fastrand::Rng::with_seed(2026);
    let (mut checked, mut taken) = (0u32, 0u32);
    for round in 0..400 {
        // Sparse and dense sets, few and many distinct priorities.
        let density = [2, 8, 32, 60][round % 4];
        let set = (0..64).fold(0u64, |acc, b| {
            acc | u64::from(rng.u32(0..64) < density) << b
        });
        let levels = [1u8, 2, 8][round % 3];
        let prio: Vec<u8> = (0..64).map(|_| rng.u8(0..levels)).collect();
        let tag_bits = rng.u64(..);
        let mut words = [0u64; 3];
        for (sq, p) in prio.iter().enumerate() {
            for b in 0..3 {
                if p >> b & 1 != 0 {
                    let bit = 3 * sq + b;
                    words[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        s.set_bits(prios, &Bits::from_words(&words, 192));
        s.set(tags, tag_bits);
        s.set(cand, set);
        s.set(load, 1);
        s.set(take, 0);
        s.step();
        s.set(load, 0);
        assert_eq!(s.get(ready), 0, "the clock after a load elects the leaders");
        assert_eq!(s.get(valid), 0);
        s.step();
        let mut rest = set;
        loop {
            assert_eq!(s.get(ready), 1);
            let e = elect(rest, |sq| prio[usize::from(sq)]);
            assert_eq!(s.get(remaining), rest, "round {round}");
            assert_eq!(s.get(valid), u64::from(e.grant != 0), "round {round}");
            assert_eq!(s.get(grant), e.grant, "round {round}: remaining {rest:#x}");
            assert_eq!(s.get(square), u64::from(e.square), "round {round}");
            assert_eq!(s.get(more), u64::from(e.more), "round {round}");
            assert_eq!(
                s.get(tag),
                u64::from(tag_bits & e.grant != 0),
                "round {round}"
            );
            checked += 1;
            // Done, or now and then a reload in the middle of a walk.
            if e.grant == 0 || rng.u32(0..25) == 0 {
                break;
            }
            // Sometimes hold the winner for a clock.
            let t = rng.u32(0..4) != 0;
            s.set(take, u64::from(t));
            s.step();
            if t {
                rest &= !e.grant;
                taken += 1;
            }
        }
        s.set(take, 0);
    }
    assert!(
        checked > 5_000 && taken > 3_000,
        "{checked} cycles, {taken} takes"
    );
}
