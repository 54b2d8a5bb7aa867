//! Where the forward pass finds each joint's parent: a plan made once per skeleton, so the
//! pass keeps only the model transforms a later joint reads, in fixed slots, and never
//! searches for them.

/// Slots for model transforms waiting for a later child (the last index, [`SCRATCH`], is
/// never given out).
pub(crate) const SLOTS: usize = 64;

/// Slots enough for nearly every skeleton (the deepest branching path of a humanoid uses
/// fewer), which the passes set up faster than all [`SLOTS`].
pub(crate) const FEW_SLOTS: usize = 16;

/// The save of joints whose model transform no later joint reads: not kept.
pub(crate) const SCRATCH: u8 = SLOTS as u8 - 1;

/// A root: its model transform is its local one.
pub(crate) const ROOT: u8 = 0xff;
/// The parent is the previous joint, whose result the pass still holds.
pub(crate) const PREVIOUS: u8 = 0xfe;
/// The parent's model transform was not kept (more waiting parents than slots): the pass
/// recomputes it.
pub(crate) const RECOMPUTE: u8 = 0xfd;

/// One joint's step: where its parent's model transform is (a slot below [`SCRATCH`],
/// [`ROOT`], [`PREVIOUS`] or [`RECOMPUTE`]) and the slot its own goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub parent: u8,
    pub save: u8,
}

/// The steps of a skeleton whose parents precede their children. A joint read by a child
/// other than the next joint is kept from its own step to its last such child's, in a slot
/// free over that span (slots are given first come, first served, which uses the fewest
/// for spans in this order); one that finds every slot taken is recomputed by its children.
pub(crate) fn plan(parents: &[i32]) -> Vec<Step> {
    let n = parents.len();
    // The last child of each joint that reads it from a slot (not the next joint).
    let mut last_read = vec![None; n];
    for (c, &p) in parents.iter().enumerate() {
        if let Ok(p) = usize::try_from(p) {
            if p + 1 != c {
                last_read[p] = Some(c);
            }
        }
    }
    let mut free: Vec<u8> = (0..SCRATCH).rev().collect();
    let mut slot_of = vec![None; n];
    parents
        .iter()
        .enumerate()
        .map(|(j, &p)| {
            let parent = match usize::try_from(p) {
                Err(_) => ROOT,
                Ok(p) if p + 1 == j => PREVIOUS,
                Ok(p) => match slot_of[p] {
                    Some(slot) => {
                        // Read for the last time: free again for this joint to take.
                        if last_read[p] == Some(j) {
                            free.push(slot);
                        }
                        slot
                    }
                    None => RECOMPUTE,
                },
            };
            let save = match last_read[j] {
                Some(_) => free.pop(),
                None => None,
            };
            slot_of[j] = save;
            Step {
                parent,
                save: save.unwrap_or(SCRATCH),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays a plan with a slot table of joint indices: every joint must find its parent
    /// where the plan says, and only slots past their last read are overwritten.
    fn replay(parents: &[i32]) -> usize {
        let steps = plan(parents);
        let mut slots = [usize::MAX; SLOTS];
        let mut recomputed = 0;
        for (j, (&p, step)) in parents.iter().zip(&steps).enumerate() {
            match step.parent {
                ROOT => assert_eq!(p, -1),
                PREVIOUS => assert_eq!(p as usize + 1, j),
                RECOMPUTE => recomputed += 1,
                slot => {
                    assert!(slot < SCRATCH);
                    assert_eq!(slots[slot as usize], p as usize, "joint {j}");
                }
            }
            slots[step.save as usize] = j;
        }
        recomputed
    }

    #[test]
    fn every_joint_finds_its_parent() {
        let chain: Vec<i32> = (-1..99).collect();
        let star: Vec<i32> = (0..100).map(|i| if i == 0 { -1 } else { 0 }).collect();
        let interleaved: Vec<i32> = (0..100).map(|i| (i - 2).max(-1)).collect();
        // Depth first, every third joint a side branch off the spine.
        let mut spine = -1;
        let branches: Vec<i32> = (0..300)
            .map(|i| {
                let p = spine;
                if i % 3 != 2 {
                    spine = i;
                }
                p
            })
            .collect();
        for parents in [&chain, &star, &interleaved, &branches] {
            assert_eq!(replay(parents), 0);
        }
        assert!(plan(&chain).iter().all(|s| s.save == SCRATCH));
        // 100 parents waiting at once: those past the slots are recomputed.
        let far: Vec<i32> = (0..300).map(|i| (i - 100).max(-1)).collect();
        assert!(replay(&far) > 0);
    }
}
