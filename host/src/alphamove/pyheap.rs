//! A binary heap that pops in exactly the order of Python's `heapq`.
//!
//! The seed's search keeps its frontier in `heapq` and compares entries by fitness alone,
//! so which of several equally fit boards comes out first depends on `heapq`'s sift
//! algorithm. Replaying that algorithm step for step lets the seed's search be reproduced
//! here expansion for expansion (3,202 expansions for the comic board with its lists).

/// A min-heap of `(key, value)` that orders by `key` only and breaks ties as `heapq` does.
#[derive(Clone, Debug, Default)]
pub(crate) struct PyHeap<V> {
    items: Vec<(u64, V)>,
}

impl<V: Copy> PyHeap<V> {
    /// An empty heap.
    pub(crate) fn new() -> Self {
        PyHeap { items: Vec::new() }
    }

    /// `heapq.heappush`.
    pub(crate) fn push(&mut self, key: u64, value: V) {
        self.items.push((key, value));
        let last = self.items.len() - 1;
        self.sift_down(0, last);
    }

    /// `heapq.heappop`.
    pub(crate) fn pop(&mut self) -> Option<(u64, V)> {
        let last = self.items.pop()?;
        if self.items.is_empty() {
            return Some(last);
        }
        let top = std::mem::replace(&mut self.items[0], last);
        self.sift_up(0);
        Some(top)
    }

    /// `heapq._siftdown`: move the item at `pos` up towards `start`.
    fn sift_down(&mut self, start: usize, mut pos: usize) {
        let item = self.items[pos];
        while pos > start {
            let parent = (pos - 1) >> 1;
            if item.0 < self.items[parent].0 {
                self.items[pos] = self.items[parent];
                pos = parent;
                continue;
            }
            break;
        }
        self.items[pos] = item;
    }

    /// `heapq._siftup`: move the smaller child up until a leaf, then sift the item down.
    fn sift_up(&mut self, mut pos: usize) {
        let end = self.items.len();
        let start = pos;
        let item = self.items[pos];
        let mut child = 2 * pos + 1;
        while child < end {
            let right = child + 1;
            if right < end && self.items[child].0 >= self.items[right].0 {
                child = right;
            }
            self.items[pos] = self.items[child];
            pos = child;
            child = 2 * pos + 1;
        }
        self.items[pos] = item;
        self.sift_down(start, pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_come_out_in_heapq_order() {
        // Python: h=[]; [heapq.heappush(h,(k,i)) for i,k in enumerate([3,1,3,1,2,3,1])]
        // with entries compared by k only, pops yield values 1 6 3 4 5 0 2.
        let mut heap = PyHeap::new();
        for (i, k) in [3, 1, 3, 1, 2, 3, 1].into_iter().enumerate() {
            heap.push(k, i);
        }
        let order: Vec<usize> = std::iter::from_fn(|| heap.pop().map(|(_, v)| v)).collect();
        assert_eq!(order, [1, 6, 3, 4, 5, 0, 2]);
    }
}
