//! A node's small FIFO queue ([`SmallQueue`]): up to [`INLINE`] entries inside the node, more
//! on the heap. A forward input buffer of `b = 2` (Choice 13) or a reply buffer takes and
//! gives back a packet or reply in most rounds; held inline, it never allocates for them.

use std::collections::VecDeque;

/// Entries a [`SmallQueue`] holds without a heap allocation.
pub(super) const INLINE: usize = 2;

/// A FIFO queue holding up to [`INLINE`] entries in place, in a ring; with more, every entry
/// moves to a boxed heap queue (8 bytes in place while there is none) until it empties again
/// (which gives its room back).
#[derive(Debug, Clone)]
pub(super) struct SmallQueue<T> {
    ring: [Option<T>; INLINE],
    /// The ring's front slot.
    head: u8,
    /// Entries in the ring (0 while `spill` holds them).
    len: u8,
    /// Every entry, while there are more than [`INLINE`] (never empty).
    #[expect(
        clippy::box_collection,
        reason = "8 bytes in every buffer instead of a queue's 32: few buffers ever hold more than two"
    )]
    spill: Option<Box<VecDeque<T>>>,
}

impl<T> Default for SmallQueue<T> {
    fn default() -> Self {
        Self { ring: [None, None], head: 0, len: 0, spill: None }
    }
}

impl<T> SmallQueue<T> {
    pub(super) fn len(&self) -> usize {
        self.spill.as_ref().map_or(usize::from(self.len), |q| q.len())
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0 && self.spill.is_none()
    }

    pub(super) fn front(&self) -> Option<&T> {
        match &self.spill {
            None => self.ring[usize::from(self.head)].as_ref(),
            Some(q) => q.front(),
        }
    }

    pub(super) fn back_mut(&mut self) -> Option<&mut T> {
        if let Some(q) = &mut self.spill {
            return q.back_mut();
        }
        let last = (usize::from(self.head) + usize::from(self.len) + INLINE - 1) % INLINE;
        if self.len == 0 { None } else { self.ring[last].as_mut() }
    }

    pub(super) fn push_back(&mut self, x: T) {
        if let Some(q) = &mut self.spill {
            q.push_back(x);
        } else if usize::from(self.len) < INLINE {
            let at = (usize::from(self.head) + usize::from(self.len)) % INLINE;
            self.ring[at] = Some(x);
            self.len += 1;
        } else {
            let mut spill = VecDeque::with_capacity(2 * INLINE);
            while let Some(y) = self.pop_ring() {
                spill.push_back(y);
            }
            spill.push_back(x);
            self.spill = Some(Box::new(spill));
        }
    }

    /// Takes the front entry; an emptied heap queue gives its room back.
    pub(super) fn pop_front(&mut self) -> Option<T> {
        let Some(q) = &mut self.spill else { return self.pop_ring() };
        let x = q.pop_front();
        if q.is_empty() {
            self.spill = None;
        }
        x
    }

    fn pop_ring(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let x = self.ring[usize::from(self.head)].take();
        self.head = (self.head + 1) % INLINE as u8;
        self.len -= 1;
        x
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        let ring = (0..usize::from(self.len))
            .filter_map(|k| self.ring[(usize::from(self.head) + k) % INLINE].as_ref());
        ring.chain(self.spill.iter().flat_map(|q| q.iter()))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use proptest::prelude::*;

    use super::SmallQueue;

    proptest! {
        /// Any sequence of pushes and pops gives what a `VecDeque` gives: the same fronts,
        /// backs, lengths and order.
        #[test]
        fn small_queue_is_a_fifo(ops in proptest::collection::vec(0u8..3, 0..64)) {
            let (mut q, mut want) = (SmallQueue::default(), VecDeque::new());
            for (i, op) in ops.into_iter().enumerate() {
                match op {
                    0 | 1 => {
                        q.push_back(i);
                        want.push_back(i);
                    }
                    _ => prop_assert_eq!(q.pop_front(), want.pop_front()),
                }
                prop_assert_eq!(q.len(), want.len());
                prop_assert_eq!(q.is_empty(), want.is_empty());
                prop_assert_eq!(q.front(), want.front());
                prop_assert_eq!(q.back_mut().copied(), want.back().copied());
                prop_assert_eq!(q.iter().copied().collect::<Vec<_>>(), want.iter().copied().collect::<Vec<_>>());
            }
        }
    }
}
