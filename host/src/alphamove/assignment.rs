//! Minimum-cost assignment (the Hungarian method with potentials), for matching pieces to
//! the target squares they must reach. Sizes are tiny (at most 16 x 16), so it works on
//! fixed arrays without allocating.

/// Minimum-cost assignment of `rows` rows to distinct columns of `cols >= rows` (the
/// Hungarian method with potentials, O(rows^2 * cols)); returns the total cost.
pub(crate) fn min_assignment(rows: usize, cols: usize, cost: impl Fn(usize, usize) -> i32) -> i32 {
    const N: usize = 17;
    debug_assert!(rows <= cols && cols < N);
    let inf = i32::MAX / 4;
    let mut u = [0i32; N];
    let mut v = [0i32; N];
    let mut p = [0usize; N];
    let mut way = [0usize; N];
    for i in 1..=rows {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = [inf; N];
        let mut used = [false; N];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=cols {
                if !used[j] {
                    let cur = cost(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=cols {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    (1..=cols)
        .filter(|&j| p[j] != 0)
        .map(|j| cost(p[j] - 1, j - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_cheapest_matching() {
        // Rows 0 and 1 both prefer column 0; the best total puts row 1 on column 2.
        let cost = [[1, 5, 9], [2, 8, 3]];
        assert_eq!(min_assignment(2, 3, |i, j| cost[i][j]), 4);
    }

    #[test]
    fn agrees_with_brute_force_on_random_matrices() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..200 {
            let cols = rng.usize(1..=6);
            let rows = rng.usize(1..=cols);
            let cost: Vec<Vec<i32>> = (0..rows)
                .map(|_| (0..cols).map(|_| rng.i32(0..20)).collect())
                .collect();
            let mut best = i32::MAX;
            let mut perm: Vec<usize> = (0..cols).collect();
            permute(&mut perm, 0, &mut |p| {
                best = best.min((0..rows).map(|i| cost[i][p[i]]).sum());
            });
            assert_eq!(min_assignment(rows, cols, |i, j| cost[i][j]), best);
        }
    }

    fn permute(p: &mut Vec<usize>, k: usize, visit: &mut impl FnMut(&[usize])) {
        if k == p.len() {
            visit(p);
            return;
        }
        for i in k..p.len() {
            p.swap(k, i);
            permute(p, k + 1, visit);
            p.swap(k, i);
        }
    }
}
