//! One node of the main search: [`Searcher::negamax`].

use crate::engine::quiescence::QJob;
use crate::engine::score::{INFINITE, Score, WIN_BOUND, is_decisive, win_at};
use crate::engine::search::ordering::{self, Candidate, TABLE_MOVE};
use crate::engine::search::{
    AHEAD_MIN_PLIES, Batch, Flow, ONE_PLY, Searcher, Sent, Ticket, plies_to_units, table_cutoff,
    table_key_of,
};
use crate::engine::tt::{Bound, pack_move, unpack_move};
use crate::rules::{Move, Position};

impl Searcher {
    /// Negamax with alpha-beta at `depth` (search units) and `ply` from the root.
    /// `excluded` is a move left out (a singular-extension test), 0 for none; `pv`
    /// receives the principal variation.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        excluded: u16,
        pv: &mut Vec<Move>,
    ) -> Flow<Score> {
        self.node(pos, depth, alpha, beta, ply, excluded, true, pv)
    }

    /// The depth a late quiet move is searched at first under late-move reductions, at a
    /// node of `depth` that has searched `before` moves: `full` less the reduction (a
    /// ply less at a PV node), at least a ply and at most `full`.
    pub(super) fn reduced_depth(&self, full: i32, depth: i32, before: usize, pv_node: bool) -> i32 {
        let mut r = self.reductions.get(depth, before + 1);
        if pv_node {
            r -= ONE_PLY;
        }
        (full - r.max(0)).max(ONE_PLY).min(full)
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        excluded: u16,
        null_allowed: bool,
        pv: &mut Vec<Move>,
    ) -> Flow<Score> {
        // The fifty-move rule: 100 plies without a capture or a pawn move draw, unless
        // the side to move has already won (no legal move), as the referee judges; at
        // the horizon too, where the quiescence search would not see it.
        if ply > 0 && pos.is_fifty_move_draw() {
            self.counts.nodes += 1;
            return Ok(0);
        }
        if self.is_leaf(pos, depth, ply) {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.counts.nodes += 1;
        self.counts.seldepth = self.counts.seldepth.max(ply);
        self.poll_limits();
        if self.aborted {
            return Ok(0);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Ok(win_at(ply));
        }
        // At the root a move is wanted even in a drawn position.
        if ply > 0 && pos.is_insufficient_material() {
            return Ok(0);
        }
        let key = pos.zobrist();
        if ply > 0 && excluded == 0 && self.is_repetition(key, pos.halfmoves()) {
            return Ok(0);
        }
        let pv_node = beta - alpha > 1;
        self.note_node(ply, pv_node);
        if ply > 0 {
            // Mate distance: the side to move wins at the earliest when it is to move
            // again with nothing left to play, and loses at the latest when the
            // opponent has nothing left after this move.
            alpha = alpha.max(-win_at(ply + 1));
            beta = beta.min(win_at(ply + 2));
            if alpha >= beta {
                return Ok(alpha);
            }
        }

        let tt_key = table_key_of(pos, key, depth);
        let hit = if excluded == 0 {
            self.tt.probe(tt_key, ply)
        } else {
            None
        };
        let tt_move = hit.map_or(0, |h| h.packed_move);
        if !pv_node
            && ply > 0
            && let Some(score) = table_cutoff(pos, tt_key, hit, depth, (alpha, beta))
        {
            return Ok(score);
        }

        let capture_forced = moves[0].is_capture();
        let forced = moves.len() == 1;

        // Reverse futility: far enough above beta near the horizon, with no capture
        // forced, the node is taken to hold.
        if !pv_node
            && ply > 0
            && excluded == 0
            && let Some(eval) =
                self.reverse_futility(pos, (moves.len(), moves[0].is_capture()), depth, beta)
        {
            return Ok(eval);
        }
        // The last plies handed over whole (after the checks above, as the host's own
        // node would make them), off the principal variation: a PV node stays on the
        // host, which searches its younger brothers with a null window (the chip's
        // search is plain alpha-beta, whose full window leaves its pruning idle). A
        // node searched here, not in a batch of brothers, goes out alone: at most
        // `alone_job_plies` deep (the brothers wait for it).
        if excluded == 0
            && !pv_node
            && let Some(quarters) = self.full_width_leaf(pos, depth, ply)
            && i32::from(quarters) <= self.alone_quarters
        {
            return self.full_width_job(
                pos,
                (alpha, beta),
                ply,
                (depth, quarters),
                (key, tt_key, hit),
                pv,
            );
        }
        let pr = &self.config.pruning;
        let late_move_limit = if !pv_node
            && ply > 0
            && !capture_forced
            && depth <= plies_to_units(pr.late_move_depth)
        {
            let plies = (depth / ONE_PLY).max(1) as usize;
            pr.late_moves * plies * plies
        } else {
            usize::MAX
        };

        if let Some(score) = self.try_null_move(
            pos,
            depth,
            beta,
            ply,
            excluded,
            null_allowed,
            pv_node,
            capture_forced,
            forced,
            moves.len(),
            key,
        )? {
            return Ok(score);
        }
        if self.aborted {
            return Ok(0);
        }

        let mut singular_bonus = 0;
        let se = &self.config.singular;
        if let Some(h) = hit
            && se.enabled
            && !forced
            && ply > 0
            && excluded == 0
            && depth >= plies_to_units(se.min_depth)
            && tt_move != 0
            && h.bound != Bound::Upper
            && h.depth >= depth - 3 * ONE_PLY
            && !is_decisive(h.score)
            && ply < 2 * self.root_depth as usize
            && unpack_move(tt_move, &moves).is_some()
        {
            let singular_beta = h.score - se.margin;
            let extension = plies_to_units(se.extension);
            let mut scratch = Vec::new();
            let s = self.node(
                pos,
                (depth - ONE_PLY) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                tt_move,
                false,
                &mut scratch,
            )?;
            // The test at this ply noted itself off the principal variation.
            self.note_node(ply, pv_node);
            if self.aborted {
                return Ok(0);
            }
            if s < singular_beta {
                singular_bonus = extension;
                self.counts.singular_extensions += 1;
            }
        }

        let mut ordered = ordering::order(pos, &moves, tt_move, &self.history, ply);

        let child_depth = if forced && depth > 0 {
            self.counts.forced_extensions += 1;
            depth + plies_to_units(self.config.forced_move_extension)
        } else {
            depth - ONE_PLY
        };
        let lmr = &self.config.lmr;
        let reducing = lmr.enabled && !capture_forced && depth >= plies_to_units(lmr.min_depth);
        let full_moves = lmr.full_moves + usize::from(ply == 0);
        // Whether a late quiet move, searched after `before` others, is reduced first.
        let reduces = |quiet: bool, before: usize| reducing && quiet && before >= full_moves;
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_packed = 0;
        let mut searched = 0;
        let mut quiets_tried: Vec<Move> = Vec::new();
        let mut child_pv = Vec::new();
        // At the root: the move that raised alpha last, and whether the last completed
        // iteration's best move has been searched.
        let mut root_raised: Option<Move> = None;
        let mut prev_searched = false;
        self.path.push(key);
        let filtered = ply == 0 && !self.root_filter.is_empty();
        let root_filter = if filtered {
            self.root_filter.clone()
        } else {
            Vec::new()
        };
        let skipped = |m: &Move| pack_move(m) == excluded || (filtered && !root_filter.contains(m));
        let depth_of = |key: i32| {
            if key == TABLE_MOVE {
                child_depth + singular_bonus
            } else {
                child_depth
            }
        };
        // Siblings handed to the quiescence search together (see `frontier_batch`);
        // at an expected all-node whose children are full-width jobs the eldest goes
        // with them (see `SearchConfig::eager_batches`). Here and for the look-ahead the
        // node's halfmove clock stands for its children's: a policy, while each child's
        // own hand-over follows its own clock.
        let all_node = !pv_node && self.expected_all_node(ply);
        let eager = self.config.eager_batches
            && all_node
            && self.full_width_leaf(pos, child_depth, ply + 1).is_some();
        let mut batch: Option<Batch> = None;
        // Brothers looked into ahead (see `SearchConfig::look_ahead`), when they are
        // nodes of the host's (jobs go out in batches): the index in `ordered` up to
        // which, and each one's jobs (their tickets).
        let look_ahead = child_depth > 0
            && self.full_width_leaf(pos, child_depth, ply + 1).is_none()
            && self.looks_ahead();
        let ahead_from = self.horizon.ahead_mark();
        let mut ahead_next = 0;
        let mut ahead_alpha = alpha;
        let mut ahead_jobs: Vec<(usize, std::ops::Range<Ticket>)> = Vec::new();
        // Seed 004's scheme at the host's frontier (see `SearchConfig::chip_split`): the
        // most forcing moves first, searched 2 plies deeper by the host; the others'
        // quiescence handed over before, with the node's window.
        let mut singular_moves = 0;
        if self.splits() && self.split_depth == 0 && !forced && child_depth <= 0 && excluded == 0 {
            ordered.retain(|c| !skipped(&c.mv));
            let fewest = ordered.iter().map(|c| c.replies).min().unwrap_or(0);
            // A child drawn by the fifty-move rule stays with the host's moves, whose
            // search judges it (a chip's quiescence has no clock).
            let on_host = |c: &Candidate| c.replies == fewest || c.child.is_fifty_move_draw();
            let forcing = ordered.iter().filter(|c| on_host(c)).count();
            if forcing > 0 && ordered.len() - forcing >= 2 {
                let (singular, others): (Vec<Candidate>, Vec<Candidate>) =
                    std::mem::take(&mut ordered).into_iter().partition(on_host);
                let jobs: Vec<QJob> = others
                    .iter()
                    .map(|c| QJob::quiescence(c.child.clone(), -beta, -alpha, ply + 1))
                    .collect();
                singular_moves = singular.len();
                ordered = singular.into_iter().chain(others).collect();
                self.horizon.count_batch(jobs.len());
                batch = Some(Batch {
                    tickets: self
                        .horizon
                        .submit(jobs)?
                        .into_iter()
                        .map(|ticket| Sent {
                            ticket,
                            reduced: false,
                            width: None,
                        })
                        .collect(),
                    alpha,
                    from: singular_moves,
                    exact: true,
                });
            }
        }
        // The brothers from `from` on, each with the depth the loop below searches it at
        // once `searched` moves are searched: late quiet moves reduced, to be searched
        // again at full depth if they beat alpha.
        let brothers = |this: &Self, from: usize, searched: usize| -> Vec<(Position, i32, i32)> {
            ordered[from..]
                .iter()
                .filter(|c| !skipped(&c.mv))
                .enumerate()
                .map(|(k, c)| {
                    let full = depth_of(c.key);
                    let quiet = !c.gives_capture && !ordering::is_special(c.key);
                    let before = searched + k;
                    let reduced = if reduces(quiet, before) {
                        this.reduced_depth(full, depth, before, pv_node)
                    } else {
                        full
                    };
                    (c.child.clone(), full, reduced)
                })
                .collect()
        };
        // At a node on the principal variation whose children are full-width jobs, the
        // younger brothers wait for the eldest's value, their null window. The table's
        // exact value of the node from the iteration before, or else the node's alpha,
        // guesses it: their batch is handed over ahead at that window before the eldest
        // is searched (see `SearchConfig::guess_batches`), and when the eldest returns
        // that value the batch made after it takes the jobs already running.
        let mut guessed: Option<std::ops::Range<Ticket>> = None;
        if let Some(g) = hit
            .filter(|h| h.bound == Bound::Exact)
            .map(|h| h.score)
            .filter(|&g| g > alpha && g < beta)
            .or(Some(alpha))
            .filter(|&g| !is_decisive(g))
            && pv_node
            && excluded == 0
            && !filtered
            && batch.is_none()
            && self.config.guess_batches
            && child_depth >= plies_to_units(f64::from(AHEAD_MIN_PLIES))
            && self.full_width_leaf(pos, child_depth, ply + 1).is_some()
            && self.looks_ahead()
        {
            let from = self.horizon.ahead_mark();
            self.guess_batch(brothers(self, 1, 1), g, ply)?;
            guessed = Some(from..self.horizon.ahead_mark());
        }
        for (
            i,
            Candidate {
                key: order_key,
                mv: m,
                child,
                gives_capture,
                ..
            },
        ) in ordered.iter().enumerate()
        {
            let packed = pack_move(m);
            if skipped(m) {
                continue;
            }
            // A move late-move reductions and pruning may act on: it offers the
            // opponent nothing to capture and is neither the table move nor a killer.
            let selective = !gives_capture && !ordering::is_special(*order_key);
            if selective && searched >= late_move_limit && best > -WIN_BOUND {
                // Pruned: its quiescence job, if one was handed over, is given up.
                if let Some(b) = batch.as_mut().filter(|b| i >= b.from) {
                    let sent = b.tickets.pop_front().expect("a ticket per batched move");
                    self.horizon.cancel(&[sent.ticket])?;
                }
                continue;
            }
            let singular_line = i < singular_moves;
            let new_depth = if singular_line {
                child_depth + 2 * ONE_PLY
            } else {
                depth_of(*order_key)
            };
            child_pv.clear();
            // The younger brothers wait for the eldest (it usually decides a cut node,
            // and its value narrows the window at the others), but at an expected
            // all-node over full-width jobs, whose null window no child changes.
            if batch.is_none() && (searched > 0 || eager) && self.horizon.dispatches() {
                let rest = brothers(self, i, searched);
                batch = self.frontier_batch(rest, alpha, ply, i)?;
                // The guess's jobs that the batch did not take are useless now.
                if let Some(range) = guessed.take() {
                    self.horizon.drop_ahead(range)?;
                }
            }
            if look_ahead && batch.is_none() && (all_node || searched > 0) {
                // A raised alpha makes what was handed over ahead useless: looked into
                // again with the new window.
                if ahead_alpha != alpha {
                    for (_, tickets) in ahead_jobs.drain(..) {
                        self.horizon.drop_ahead(tickets)?;
                    }
                    ahead_next = i;
                    ahead_alpha = alpha;
                }
                let limit = self.ahead_limit();
                let mut before = searched;
                for (j, c) in ordered.iter().enumerate().skip(i) {
                    if skipped(&c.mv) {
                        continue;
                    }
                    let quiet = !c.gives_capture && !ordering::is_special(c.key);
                    if j >= ahead_next {
                        if j >= i + limit
                            || self.horizon.ahead_open() >= limit
                            || (quiet && before >= late_move_limit)
                        {
                            break;
                        }
                        let full = depth_of(c.key);
                        let d = if before > 0 && reduces(quiet, before) {
                            self.reduced_depth(full, depth, before, pv_node)
                        } else {
                            full
                        };
                        let from = self.horizon.ahead_mark();
                        self.look_ahead_into(&c.child, d, alpha, ply)?;
                        ahead_jobs.push((j, from..self.horizon.ahead_mark()));
                        ahead_next = j + 1;
                    }
                    before += 1;
                }
            }
            self.split_depth += u32::from(singular_line);
            let score = if let Some(b) = batch.as_mut().filter(|b| i >= b.from) {
                let sent = b.tickets.pop_front().expect("a ticket per batched move");
                let reduced = sent.reduced;
                self.before_leaf(ply + 1);
                let r = self.take_job(sent.ticket, ply + 1)?;
                self.after_leaf(&r);
                if let Some((d, tt_key)) = sent.width {
                    self.remember_job(tt_key, d, -b.alpha - 1, -b.alpha, ply + 1, &r);
                }
                let mut s = -r.score;
                // A reduced job that beats alpha is searched again at full depth.
                if reduced && !self.aborted && s > alpha {
                    child_pv.clear();
                    s = -self.negamax(
                        child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        0,
                        &mut child_pv,
                    )?;
                }
                // A null-window result above the window it was sent with is a bound:
                // the exact value comes from a search with the current window.
                if !b.exact && !self.aborted && s > b.alpha && s < beta {
                    -self.negamax(child, new_depth, -beta, -alpha, ply + 1, 0, &mut child_pv)?
                } else {
                    s
                }
            } else if searched == 0 {
                -self.negamax(child, new_depth, -beta, -alpha, ply + 1, 0, &mut child_pv)?
            } else {
                // Late quiet moves that offer nothing to capture: a reduced search
                // first.
                let reduced = if reduces(selective, searched) {
                    self.reduced_depth(new_depth, depth, searched, pv_node)
                } else {
                    new_depth
                };
                let mut s = -self.negamax(
                    child,
                    reduced,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    0,
                    &mut child_pv,
                )?;
                if s > alpha && reduced < new_depth && !self.aborted {
                    child_pv.clear();
                    s = -self.negamax(
                        child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        0,
                        &mut child_pv,
                    )?;
                }
                if s > alpha && s < beta && !self.aborted {
                    child_pv.clear();
                    -self.negamax(child, new_depth, -beta, -alpha, ply + 1, 0, &mut child_pv)?
                } else {
                    s
                }
            };
            self.split_depth -= u32::from(singular_line);
            // What was handed over ahead for this move and not asked for is useless now.
            if let Some(k) = ahead_jobs.iter().position(|(j, _)| *j == i) {
                let (_, tickets) = ahead_jobs.swap_remove(k);
                self.horizon.drop_ahead(tickets)?;
            }
            if self.aborted {
                self.horizon.abandon();
                self.path.pop();
                return Ok(0);
            }
            searched += 1;
            if ply == 0 {
                prev_searched |= self.root_prev.is_none_or(|p| p == *m);
            }
            if score > best {
                best = score;
                best_packed = packed;
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        root_raised = Some(*m);
                        if prev_searched {
                            self.root_best = root_raised;
                        }
                    }
                    pv.clear();
                    pv.push(*m);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        if !capture_forced && !self.looking_ahead {
                            self.history
                                .cutoff(pos.turn(), m, &quiets_tried, depth, ply);
                        }
                        if let Some(b) = batch.take() {
                            let left: Vec<_> = b.tickets.into_iter().map(|s| s.ticket).collect();
                            self.horizon.cancel(&left)?;
                        }
                        break;
                    }
                }
            }
            // At the root, the move that raised alpha (a cutoff's included, above) is
            // the unfinished iteration's best (see the module documentation) once the
            // last iteration's best has been searched too, in this window: searched
            // first as a rule, but not after a failed aspiration window or with
            // `searchmoves`, whose roots keep no table move.
            if ply == 0 && prev_searched && root_raised.is_some() {
                self.root_best = root_raised;
            }
            if !capture_forced {
                quiets_tried.push(*m);
            }
        }
        self.path.pop();
        if look_ahead || guessed.is_some() {
            self.horizon
                .drop_ahead(ahead_from..self.horizon.ahead_mark())?;
        }
        if searched == 0 {
            // Only the excluded move existed: nothing else can reach the bound.
            return Ok(alpha);
        }
        // A root searched over some moves only (searchmoves) has no value to keep.
        if excluded == 0 && !filtered && !self.looking_ahead {
            let bound = Bound::of(best, original_alpha, beta);
            self.tt.store(tt_key, depth, best, bound, best_packed, ply);
        }
        Ok(best)
    }

    /// The null move (see the module documentation): `Some(score)` when passing still
    /// fails high, so that the node is cut off.
    #[allow(clippy::too_many_arguments)]
    fn try_null_move(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: Score,
        ply: usize,
        excluded: u16,
        null_allowed: bool,
        pv_node: bool,
        capture_forced: bool,
        forced: bool,
        own_moves: usize,
        key: u64,
    ) -> Flow<Option<Score>> {
        let nm = &self.config.null_move;
        let turn = pos.turn();
        if !nm.enabled
            || !null_allowed
            || pv_node
            || ply == 0
            || excluded != 0
            || capture_forced
            || forced
            || depth < plies_to_units(nm.min_depth)
            || is_decisive(beta)
            || pos.piece_count(turn) < nm.min_pieces
            || pos.piece_count(!turn) < nm.min_pieces
        {
            return Ok(None);
        }
        if self.evaluator.evaluate(pos, Some(own_moves)) < beta {
            return Ok(None);
        }
        let Some(passed) = pos.null_move() else {
            return Ok(None);
        };
        let reduced = depth - ONE_PLY - plies_to_units(nm.reduction);
        let mut scratch = Vec::new();
        self.path.push(key);
        let s = -self.node(
            &passed,
            reduced,
            -beta,
            -beta + 1,
            ply + 1,
            0,
            false,
            &mut scratch,
        )?;
        self.path.pop();
        if self.aborted || s < beta {
            return Ok(None);
        }
        // A pass proves no win: a decided score is only a bound of beta.
        Ok(Some(if is_decisive(s) { beta } else { s }))
    }
}
