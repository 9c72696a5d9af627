//! Numerical abstract domains for duet-rs: intervals, octagons (Miné) and
//! a product of octagons over variable packs (DUET §5.1, Algorithm 2).
//!
//! The crate depends on nothing from the analyser. A client translates its
//! expressions into [`LinExpr`], [`LinCons`] or [`NumExpr`] over dimensions
//! `0..n` and drives any [`NumDomain`].
//!
//! # Integers
//!
//! Every element stands for a set of points of ℤⁿ: values are mathematical
//! integers with ±∞ as bounds, and the client models C wrap-around itself.
//!
//! * The public value types ([`Bound`], [`Interval`], [`LinExpr`],
//!   [`NumExpr`], [`Thresholds`]) hold `i128`. Every operation on them is
//!   checked; when a result does not fit, it is rounded *outwards* in the
//!   direction that weakens the bound (an upper bound goes up, to +∞ when it
//!   overflows upwards; a lower bound goes down). Combining [`LinExpr`]s
//!   returns `None` on overflow instead of a wrong coefficient.
//! * The octagon's difference-bound matrix holds `i64`. Finite entries lie in
//!   `[−(2⁶¹−2), 2⁶¹−2]` and +∞ is a reserved value above that range. Every
//!   sum is formed without overflow (both operands are below 2⁶²) and then
//!   clamped: a result above the finite range becomes +∞ and one below it
//!   becomes the smallest finite entry, which is a weaker bound. So an octagon
//!   loses bounds whose magnitude exceeds about 2⁶⁰ (unary bounds are stored
//!   doubled), but never holds a wrong finite bound.
//!
//! # Soundness contract
//!
//! Every operation over-approximates its concrete counterpart: a concrete
//! state or result that is possible is never excluded. Precision may be lost
//! (large constants, non-linear expressions, constraints spanning packs),
//! soundness may not. Division by a divisor that may be zero covers the
//! quotients by the divisor's non-zero values; division by exactly zero gives
//! ⊤, never ⊥. No operation panics or overflows on any input; a broken
//! precondition (mismatched dimensions, a dimension out of range) is a logic
//! error caught by `debug_assert!` in debug builds, see [`NumDomain`].

#![warn(missing_docs)]

pub mod bound;
pub mod domain;
pub mod interval;
pub mod intervals;
pub mod linexpr;
pub mod numexpr;
pub mod octagon;
pub mod packed;
pub mod packs;
pub mod print;
pub mod thresholds;

pub use bound::{Bound, Round};
pub use domain::NumDomain;
pub use interval::Interval;
pub use intervals::Intervals;
pub use linexpr::{ConsKind, LinCons, LinExpr};
pub use numexpr::{Affine, CmpOp, NumExpr};
pub use octagon::Octagon;
pub use packed::Packed;
pub use packs::{Packing, PackingBuilder, Scope};
pub use print::format_constraints;
pub use thresholds::Thresholds;
