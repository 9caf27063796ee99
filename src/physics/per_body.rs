//! Arrays with one entry per body (the step's records, the broad phase's marks, the
//! solver's body states), sized to the body count.
//!
//! They grow to the next power of two of the count, not to the count itself. `Vec::resize`
//! from empty allocates exactly what it is asked for, so a large world of still bodies that
//! then gets one more (Box3D's large world drops a ball every five steps) would copy every
//! such array in that step, into fresh pages. With room to the next power of two, bodies
//! added one at a time copy nothing until the count passes it, and then each array doubles,
//! as the body list itself does (docs/BENCHMARKS.md, "Room in the per-body arrays").
//!
//! Known limits: the room costs memory, up to a little under twice the count's entries in
//! each array; a world that loses bodies keeps its arrays' capacity.

use crate::physics::collide::grow;

/// Makes room in `v` for `n` entries: the next power of two of `n` where it has less.
pub(crate) fn room<T>(v: &mut Vec<T>, n: usize) {
    if n > v.capacity() {
        grow(v, n.next_power_of_two());
    }
}

/// Resizes `v` to `n` entries (new ones `fill`), with [`room`] for more.
pub(crate) fn fit<T: Clone>(v: &mut Vec<T>, n: usize, fill: T) {
    room(v, n);
    v.resize(n, fill);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_added_one_at_a_time_move_nothing_until_the_power_of_two() {
        let mut v: Vec<u64> = Vec::new();
        fit(&mut v, 90_000, 7);
        assert_eq!(v.capacity(), 131_072);
        let at = v.as_ptr();
        for n in 90_001..=131_072 {
            fit(&mut v, n, 7);
        }
        assert_eq!(v.as_ptr(), at, "the array moved before it was full");
        assert!(v.iter().all(|&x| x == 7));
        fit(&mut v, 131_073, 7);
        assert_eq!(v.capacity(), 262_144);
        // Shrinking keeps the room; extending after `room` keeps the buffer.
        fit(&mut v, 10, 0);
        assert_eq!((v.len(), v.capacity()), (10, 262_144));
        let mut w: Vec<u8> = vec![1; 5];
        room(&mut w, 6);
        assert_eq!(w.capacity(), 8);
        w.extend([2, 3, 4]);
        assert_eq!(w, [1, 1, 1, 1, 1, 2, 3, 4]);
    }
}
