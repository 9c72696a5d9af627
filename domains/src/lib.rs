//! Numerical abstract domains for duet-rs: intervals and octagons (Miné), and the
//! variable packs (DUET §5.1, Algorithm 2) a client keeps one octagon per pack for.
//!
//! The crate depends on nothing from the analyser. A client translates its
//! expressions into [`LinExpr`], [`LinCons`] or [`NumExpr`] over dimensions
//! `0..n` and drives any [`NumDomain`].
//!
//! # Example
//!
//! ```
//! use domains::{CmpOp, Interval, LinCons, LinExpr, NumDomain, NumExpr, Octagon, Thresholds};
//!
//! // Two variables, x (dimension 0) and y (dimension 1).
//! let names = |d: usize| ["x", "y"][d].to_string();
//! let mut head = Octagon::top(2);
//! head.assign_interval(0, Interval::point(0)); // x := 0
//! head.assign_expr(1, &NumExpr::var(0)); // y := x
//!
//! // while (x < 100) { x = x + 1; y = y + 1; }, with widening at the head.
//! let init = head.clone();
//! let th = Thresholds::new([100]);
//! loop {
//!     let mut body = head.clone();
//!     body.guard_expr(&NumExpr::var(0), CmpOp::Lt, &NumExpr::cst(100));
//!     body.assign_expr(0, &(NumExpr::var(0) + NumExpr::cst(1)));
//!     body.assign_linear(1, &LinExpr::var(1).with_constant(1));
//!     let next = init.join(&body);
//!     if next.leq(&head) {
//!         break;
//!     }
//!     head.widen_with(&next, Some(&th));
//! }
//! assert_eq!(head.pretty(&names), "0 <= x <= 100 && 0 <= y <= 100 && x - y == 0");
//!
//! // Leaving the loop: x >= 100.
//! head.guard(&LinCons::ge0(LinExpr::var(0).with_constant(-100)));
//! assert_eq!(head.bounds_of(1), Interval::point(100));
//! ```
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
//! (large constants, non-linear expressions),
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
pub use packs::{Packing, PackingBuilder, Scope};
pub use print::format_constraints;
pub use thresholds::Thresholds;
