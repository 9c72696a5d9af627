//! Hash-consed terms over integers and Booleans: the values, locations and conditions of the
//! thread summaries, and the constraints of the encoding.
//!
//! Every distinct term exists once, so a value computed once and used by many events stays one
//! node, and printing it as SMT-LIB2 names it once. The constructors fold constants and keep a
//! cheap interval for every integer term, which removes most wrap-around operations (a counter
//! that stays in range needs none) and lets pruning compare concrete locations.

use hashbrown::HashMap;
use std::fmt::Write;

/// A term id.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct T(pub u32);

/// Bitwise operators kept symbolic (encoded through bit-vectors).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BitOp {
    /// `&`
    And,
    /// `|`
    Or,
    /// `^`
    Xor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
}

/// The result of [`Terms::int_binary`].
#[derive(Copy, Clone, Debug)]
pub enum Arith {
    /// The value, already of the operation's type.
    Exact(T),
    /// The mathematical value, still to be wrapped to the operation's type.
    Unwrapped(T),
}

/// Width and signedness of the machine integers of a scalar type.
pub(crate) fn int_params(t: crate::ir::Ty) -> (u8, bool) {
    use crate::ir::Ty;
    match t {
        Ty::Bool => (1, false),
        Ty::Int(i) => (i.bits, i.signed),
        Ty::Ptr => (crate::ir::types::ptr_int(crate::interp::layout::ADDRESS_MODEL).bits, false),
        Ty::Float => (64, true),
    }
}

/// One node of the term graph.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// An integer constant.
    Int(i128),
    /// A Boolean constant.
    Bool(bool),
    /// An integer unknown (`s<n>`).
    Sym(u32),
    /// A Boolean unknown (`b<n>`).
    BSym(u32),
    /// The initial contents of memory at an address: the uninterpreted function `init`.
    Init(T),
    /// Sum.
    Add(T, T),
    /// Difference.
    Sub(T, T),
    /// Product.
    Mul(T, T),
    /// C division (truncating).
    Div(T, T),
    /// Reduction to a `bits`-wide integer type, signed or not.
    Wrap(u8, bool, T),
    /// A bitwise operation on `bits`-wide values, signed or not.
    Bits(BitOp, u8, bool, T, T),
    /// Bitwise complement of a `bits`-wide value.
    BitNot(u8, bool, T),
    /// If-then-else (of either sort).
    Ite(T, T, T),
    /// `<`
    Lt(T, T),
    /// `<=`
    Le(T, T),
    /// `=`
    Eq(T, T),
    /// Negation.
    Not(T),
    /// Conjunction.
    And(Vec<T>),
    /// Disjunction.
    Or(Vec<T>),
}

/// An interval bound pair; `None` is unbounded.
pub(crate) type Range = (Option<i128>, Option<i128>);

/// The term store.
#[derive(Default)]
pub struct Terms {
    nodes: Vec<Node>,
    index: HashMap<Node, T>,
    ranges: Vec<Range>,
    is_bool: Vec<bool>,
    sym_ranges: Vec<Range>,
    bsyms: u32,
}

const LIMIT: i128 = 1 << 100;

fn clamp(v: Option<i128>) -> Option<i128> {
    v.filter(|x| x.abs() < LIMIT)
}

impl Terms {
    /// An empty store.
    pub fn new() -> Terms {
        Terms::default()
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when no term exists.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The node of a term.
    pub fn node(&self, t: T) -> &Node {
        &self.nodes[t.0 as usize]
    }

    /// Calls `f` on every term reachable from `roots` that `seen` (one flag per term) does not
    /// yet mark, depth first, marking each; a shared `seen` visits a node once across calls.
    pub fn walk(&self, roots: &[T], seen: &mut [bool], mut f: impl FnMut(T)) {
        let mut stack: Vec<T> = roots.to_vec();
        while let Some(x) = stack.pop() {
            if std::mem::replace(&mut seen[x.0 as usize], true) {
                continue;
            }
            f(x);
            stack.extend(children(self.node(x)));
        }
    }

    /// The interval of an integer term.
    pub fn range(&self, t: T) -> Range {
        self.ranges[t.0 as usize]
    }

    /// Whether the term is Boolean.
    pub fn is_bool(&self, t: T) -> bool {
        self.is_bool[t.0 as usize]
    }

    /// Number of integer unknowns created.
    pub fn sym_count(&self) -> u32 {
        self.sym_ranges.len() as u32
    }

    /// Number of Boolean unknowns created.
    pub fn bsym_count(&self) -> u32 {
        self.bsyms
    }

    /// The declared range of integer unknown `n`.
    pub fn sym_range(&self, n: u32) -> Range {
        self.sym_ranges[n as usize]
    }

    fn intern(&mut self, n: Node, range: Range, is_bool: bool) -> T {
        if let Some(t) = self.index.get(&n) {
            return *t;
        }
        let t = T(self.nodes.len() as u32);
        self.nodes.push(n.clone());
        self.ranges.push(if is_bool { (Some(0), Some(1)) } else { (clamp(range.0), clamp(range.1)) });
        self.is_bool.push(is_bool);
        self.index.insert(n, t);
        t
    }

    /// The integer constant `v`.
    pub fn int(&mut self, v: i128) -> T {
        self.intern(Node::Int(v), (Some(v), Some(v)), false)
    }

    /// A Boolean constant.
    pub fn bool(&mut self, b: bool) -> T {
        self.intern(Node::Bool(b), (None, None), true)
    }

    /// `true`.
    pub fn tt(&mut self) -> T {
        self.bool(true)
    }

    /// `false`.
    pub fn ff(&mut self) -> T {
        self.bool(false)
    }

    /// A fresh integer unknown whose value lies in `range` (the range is asserted when encoded).
    pub fn fresh(&mut self, range: Range) -> T {
        let n = self.sym_ranges.len() as u32;
        self.sym_ranges.push(range);
        self.intern(Node::Sym(n), range, false)
    }

    /// The term of integer unknown `n`.
    pub fn intern_sym(&mut self, n: u32) -> T {
        let r = self.sym_ranges[n as usize];
        self.intern(Node::Sym(n), r, false)
    }

    /// A fresh Boolean unknown.
    pub fn fresh_bool(&mut self) -> T {
        let n = self.bsyms;
        self.bsyms += 1;
        self.intern(Node::BSym(n), (None, None), true)
    }

    /// The initial memory contents at `addr`.
    pub fn init(&mut self, addr: T) -> T {
        self.intern(Node::Init(addr), (None, None), false)
    }

    /// The initial memory contents at `addr`, known (by a constraint the caller asserts) to
    /// lie in `range`; the first range given for an address sticks.
    pub fn init_ranged(&mut self, addr: T, range: Range) -> T {
        self.intern(Node::Init(addr), range, false)
    }

    /// The constant value of a term, if it is one (Booleans as 0/1).
    pub fn as_const(&self, t: T) -> Option<i128> {
        match self.node(t) {
            Node::Int(v) => Some(*v),
            Node::Bool(b) => Some(*b as i128),
            _ => None,
        }
    }

    /// The Boolean constant of a term, if it is one.
    pub fn as_bool(&self, t: T) -> Option<bool> {
        match self.node(t) {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// `a + b`.
    pub fn add(&mut self, a: T, b: T) -> T {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if (x + y).abs() < LIMIT => return self.int(x + y),
            (Some(0), _) => return b,
            (_, Some(0)) => return a,
            (Some(_), None) => return self.add(b, a),
            _ => {}
        }
        // (x + c1) + c2 = x + (c1 + c2): keeps address arithmetic on one base flat.
        if let (Node::Add(x, c1), Some(c2)) = (self.node(a).clone(), self.as_const(b)) {
            if let Some(c1v) = self.as_const(c1) {
                let c = self.int(c1v + c2);
                return self.add(x, c);
            }
        }
        let (ra, rb) = (self.range(a), self.range(b));
        let r = (ra.0.zip(rb.0).map(|(x, y)| x + y), ra.1.zip(rb.1).map(|(x, y)| x + y));
        self.intern(Node::Add(a, b), r, false)
    }

    /// `a - b`.
    pub fn sub(&mut self, a: T, b: T) -> T {
        if a == b {
            return self.int(0);
        }
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if (x - y).abs() < LIMIT => return self.int(x - y),
            (_, Some(0)) => return a,
            (_, Some(y)) => {
                let n = self.int(-y);
                return self.add(a, n);
            }
            _ => {}
        }
        let (ra, rb) = (self.range(a), self.range(b));
        let r = (ra.0.zip(rb.1).map(|(x, y)| x - y), ra.1.zip(rb.0).map(|(x, y)| x - y));
        self.intern(Node::Sub(a, b), r, false)
    }

    /// `a * b`.
    pub fn mul(&mut self, a: T, b: T) -> T {
        match (self.as_const(a), self.as_const(b)) {
            (Some(x), Some(y)) if x.checked_mul(y).is_some_and(|p| p.abs() < LIMIT) => return self.int(x * y),
            (Some(0), _) | (_, Some(0)) => return self.int(0),
            (Some(1), _) => return b,
            (_, Some(1)) => return a,
            (Some(_), None) => return self.mul(b, a),
            _ => {}
        }
        let (ra, rb) = (self.range(a), self.range(b));
        let r = match (ra, rb) {
            ((Some(a0), Some(a1)), (Some(b0), Some(b1))) => {
                let ps = [a0.checked_mul(b0), a0.checked_mul(b1), a1.checked_mul(b0), a1.checked_mul(b1)];
                if ps.iter().all(|p| p.is_some()) {
                    let ps: Vec<i128> = ps.iter().map(|p| p.unwrap()).collect();
                    (ps.iter().min().copied(), ps.iter().max().copied())
                } else {
                    (None, None)
                }
            }
            _ => (None, None),
        };
        self.intern(Node::Mul(a, b), r, false)
    }

    /// C division `a / b` (truncating towards zero).
    pub fn div(&mut self, a: T, b: T) -> T {
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            if let Some(q) = crate::interp::ops::c_div(x, y) {
                return self.int(q);
            }
        }
        if self.as_const(b) == Some(1) {
            return a;
        }
        let ra = self.range(a);
        let r = match (self.as_const(b), ra) {
            (Some(d), (Some(lo), Some(hi))) if d != 0 => {
                let (x, y) = (lo / d, hi / d);
                (Some(x.min(y).min(0)), Some(x.max(y).max(0)))
            }
            _ => (None, None),
        };
        self.intern(Node::Div(a, b), r, false)
    }

    /// C remainder `a % b` (sign of the dividend).
    pub fn rem(&mut self, a: T, b: T) -> T {
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            if let Some(r) = crate::interp::ops::c_rem(x, y) {
                return self.int(r);
            }
        }
        let q = self.div(a, b);
        let p = self.mul(b, q);
        let r = self.sub(a, p);
        // The remainder's magnitude stays below the divisor's; record that for pruning.
        if let Some(d) = self.as_const(b) {
            let m = d.abs() - 1;
            let lo = if self.range(a).0.is_some_and(|l| l >= 0) { 0 } else { -m };
            let hi = if self.range(a).1.is_some_and(|h| h <= 0) { 0 } else { m };
            let i = r.0 as usize;
            let cur = self.ranges[i];
            self.ranges[i] = (Some(cur.0.map_or(lo, |c| c.max(lo))), Some(cur.1.map_or(hi, |c| c.min(hi))));
        }
        r
    }

    /// `x op y` on the machine integers of type `t`: a comparison or bitwise operator is exact
    /// ([`Arith::Exact`]); `+ - * / %` come back before wrap-around ([`Arith::Unwrapped`]), so
    /// that the caller can guard overflow before converting to `t`.
    pub fn int_binary(&mut self, op: crate::ir::BinOp, t: crate::ir::Ty, x: T, y: T) -> Arith {
        use crate::ir::BinOp;
        let (bits, signed) = int_params(t);
        let c = match op {
            BinOp::Add => return Arith::Unwrapped(self.add(x, y)),
            BinOp::Sub => return Arith::Unwrapped(self.sub(x, y)),
            BinOp::Mul => return Arith::Unwrapped(self.mul(x, y)),
            BinOp::Div => return Arith::Unwrapped(self.div(x, y)),
            BinOp::Rem => return Arith::Unwrapped(self.rem(x, y)),
            BinOp::Shl => return Arith::Exact(self.bits(BitOp::Shl, bits, signed, x, y)),
            BinOp::Shr => return Arith::Exact(self.bits(BitOp::Shr, bits, signed, x, y)),
            BinOp::BitAnd => return Arith::Exact(self.bits(BitOp::And, bits, signed, x, y)),
            BinOp::BitOr => return Arith::Exact(self.bits(BitOp::Or, bits, signed, x, y)),
            BinOp::BitXor => return Arith::Exact(self.bits(BitOp::Xor, bits, signed, x, y)),
            BinOp::Lt => self.lt(x, y),
            BinOp::Le => self.le(x, y),
            BinOp::Gt => self.lt(y, x),
            BinOp::Ge => self.le(y, x),
            BinOp::Eq => self.eq(x, y),
            BinOp::Ne => {
                let e = self.eq(x, y);
                self.not(e)
            }
        };
        Arith::Exact(self.bool_to_int(c))
    }

    /// `v` converted to a scalar type, as C converts on assignment: wrapped to an integer
    /// type's width, to 0/1 for `_Bool`, to an address for a pointer; floats stay unknown.
    pub fn convert(&mut self, ty: crate::ir::Ty, v: T) -> T {
        use crate::ir::Ty;
        match ty {
            Ty::Bool => {
                let c = self.truthy(v);
                self.bool_to_int(c)
            }
            Ty::Int(i) => self.wrap(i.bits, i.signed, v),
            Ty::Ptr => {
                let p = crate::ir::types::ptr_int(crate::interp::layout::ADDRESS_MODEL);
                self.wrap(p.bits, false, v)
            }
            Ty::Float => v,
        }
    }

    /// `x` reduced to a `bits`-wide integer type.
    pub fn wrap(&mut self, bits: u8, signed: bool, x: T) -> T {
        let it = crate::ir::IntTy { bits, signed };
        if let Some(v) = self.as_const(x) {
            return self.int(it.wrap(v));
        }
        let r = self.range(x);
        if r.0.is_some_and(|l| l >= it.min()) && r.1.is_some_and(|h| h <= it.max()) {
            return x;
        }
        self.intern(Node::Wrap(bits, signed, x), (Some(it.min()), Some(it.max())), false)
    }

    /// A bitwise operation on `bits`-wide values.
    pub fn bits(&mut self, op: BitOp, bits: u8, signed: bool, a: T, b: T) -> T {
        let it = crate::ir::IntTy { bits, signed };
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            let v = match op {
                BitOp::And => Some(x & y),
                BitOp::Or => Some(x | y),
                BitOp::Xor => Some(x ^ y),
                BitOp::Shl if (0..bits as i128).contains(&y) => Some(x.wrapping_shl(y as u32)),
                BitOp::Shr if (0..bits as i128).contains(&y) => Some(x >> y),
                _ => None,
            };
            if let Some(v) = v {
                return self.int(it.wrap(v));
            }
        }
        // Shifts by a constant are multiplications and floor divisions by a power of two.
        if let Some(k) = self.as_const(b) {
            if (0..bits as i128).contains(&k) {
                let p = self.int(1i128 << k);
                match op {
                    BitOp::Shl => {
                        let m = self.mul(a, p);
                        return self.wrap(bits, signed, m);
                    }
                    BitOp::Shr if self.range(a).0.is_some_and(|l| l >= 0) => return self.div(a, p),
                    _ => {}
                }
            }
            // x & (2^k - 1) on a non-negative x is x mod 2^k.
            if op == BitOp::And && k >= 0 && (k + 1).count_ones() == 1 && self.range(a).0.is_some_and(|l| l >= 0) {
                if self.range(a).1.is_some_and(|h| h <= k) {
                    return a;
                }
                let m = self.int(k + 1);
                return self.rem(a, m);
            }
            if op == BitOp::And && k == 0 {
                return self.int(0);
            }
        }
        let r = if signed { (Some(it.min()), Some(it.max())) } else { (Some(0), Some(it.max())) };
        self.intern(Node::Bits(op, bits, signed, a, b), r, false)
    }

    /// Bitwise complement of a `bits`-wide value.
    pub fn bitnot(&mut self, bits: u8, signed: bool, a: T) -> T {
        let it = crate::ir::IntTy { bits, signed };
        if let Some(x) = self.as_const(a) {
            return self.int(it.wrap(!x));
        }
        self.intern(Node::BitNot(bits, signed, a), (Some(it.min()), Some(it.max())), false)
    }

    /// If-then-else; both branches must have the same sort.
    pub fn ite(&mut self, c: T, a: T, b: T) -> T {
        if a == b {
            return a;
        }
        match self.as_bool(c) {
            Some(true) => return a,
            Some(false) => return b,
            None => {}
        }
        if let Node::Not(inner) = self.node(c).clone() {
            return self.ite(inner, b, a);
        }
        if self.is_bool(a) {
            return match (self.as_bool(a), self.as_bool(b)) {
                (Some(true), Some(false)) => c,
                (Some(false), Some(true)) => self.not(c),
                (Some(true), _) => self.or(&[c, b]),
                (Some(false), _) => {
                    let nc = self.not(c);
                    self.and(&[nc, b])
                }
                (_, Some(true)) => {
                    let nc = self.not(c);
                    self.or(&[nc, a])
                }
                (_, Some(false)) => self.and(&[c, a]),
                _ => self.intern(Node::Ite(c, a, b), (None, None), true),
            };
        }
        // ite(c, ite(c, x, y), z) = ite(c, x, z) and the mirror image.
        if let Node::Ite(c2, x, _) = self.node(a).clone() {
            if c2 == c {
                return self.ite(c, x, b);
            }
        }
        if let Node::Ite(c2, _, y) = self.node(b).clone() {
            if c2 == c {
                return self.ite(c, a, y);
            }
        }
        let (ra, rb) = (self.range(a), self.range(b));
        let r = (ra.0.zip(rb.0).map(|(x, y)| x.min(y)), ra.1.zip(rb.1).map(|(x, y)| x.max(y)));
        self.intern(Node::Ite(c, a, b), r, false)
    }

    /// `a < b`.
    pub fn lt(&mut self, a: T, b: T) -> T {
        if a == b {
            return self.ff();
        }
        let (ra, rb) = (self.range(a), self.range(b));
        if ra.1.zip(rb.0).is_some_and(|(x, y)| x < y) {
            return self.tt();
        }
        if ra.0.zip(rb.1).is_some_and(|(x, y)| x >= y) {
            return self.ff();
        }
        self.intern(Node::Lt(a, b), (None, None), true)
    }

    /// `a <= b` without simplification: for asserting the ranges the simplifier assumes.
    pub fn le_raw(&mut self, a: T, b: T) -> T {
        self.intern(Node::Le(a, b), (None, None), true)
    }

    /// `a <= b`.
    pub fn le(&mut self, a: T, b: T) -> T {
        if a == b {
            return self.tt();
        }
        let (ra, rb) = (self.range(a), self.range(b));
        if ra.1.zip(rb.0).is_some_and(|(x, y)| x <= y) {
            return self.tt();
        }
        if ra.0.zip(rb.1).is_some_and(|(x, y)| x > y) {
            return self.ff();
        }
        self.intern(Node::Le(a, b), (None, None), true)
    }

    /// `a = b` (integers or Booleans).
    pub fn eq(&mut self, a: T, b: T) -> T {
        if a == b {
            return self.tt();
        }
        if self.is_bool(a) {
            let ab = self.and(&[a, b]);
            let na = self.not(a);
            let nb = self.not(b);
            let nab = self.and(&[na, nb]);
            return self.or(&[ab, nab]);
        }
        let (ra, rb) = (self.range(a), self.range(b));
        if ra.1.zip(rb.0).is_some_and(|(x, y)| x < y) || ra.0.zip(rb.1).is_some_and(|(x, y)| x > y) {
            return self.ff();
        }
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.bool(x == y);
        }
        // An if-then-else of constants compared with a constant is a condition on its guard.
        if let (Node::Ite(c, x, y), Some(k)) = (self.node(a).clone(), self.as_const(b)) {
            if let (Some(xv), Some(yv)) = (self.as_const(x), self.as_const(y)) {
                return match (xv == k, yv == k) {
                    (true, true) => self.tt(),
                    (true, false) => c,
                    (false, true) => self.not(c),
                    (false, false) => self.ff(),
                };
            }
        }
        if self.as_const(a).is_some() {
            return self.eq(b, a);
        }
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        self.intern(Node::Eq(a, b), (None, None), true)
    }

    /// Negation.
    pub fn not(&mut self, a: T) -> T {
        match self.node(a).clone() {
            Node::Bool(b) => self.bool(!b),
            Node::Not(x) => x,
            _ => self.intern(Node::Not(a), (None, None), true),
        }
    }

    /// Conjunction.
    pub fn and(&mut self, xs: &[T]) -> T {
        self.junction(xs, true)
    }

    /// Disjunction.
    pub fn or(&mut self, xs: &[T]) -> T {
        self.junction(xs, false)
    }

    /// `and` (`conj`) or `or`: flattened, sorted and deduplicated, with the neutral constant
    /// dropped, and the absorbing one for a constant operand or a literal beside its negation.
    fn junction(&mut self, xs: &[T], conj: bool) -> T {
        let mut v: Vec<T> = Vec::with_capacity(xs.len());
        for &x in xs {
            match self.node(x) {
                Node::Bool(b) if *b == conj => {}
                Node::Bool(_) => return self.bool(!conj),
                Node::And(ys) if conj => v.extend(ys.iter().copied()),
                Node::Or(ys) if !conj => v.extend(ys.iter().copied()),
                _ => v.push(x),
            }
        }
        v.sort();
        v.dedup();
        for &x in &v {
            if let Node::Not(y) = self.node(x) {
                if v.binary_search(y).is_ok() {
                    return self.bool(!conj);
                }
            }
        }
        match v.len() {
            0 => self.bool(conj),
            1 => v[0],
            _ => self.intern(if conj { Node::And(v) } else { Node::Or(v) }, (None, None), true),
        }
    }

    /// `a => b`.
    pub fn implies(&mut self, a: T, b: T) -> T {
        let na = self.not(a);
        self.or(&[na, b])
    }

    /// 1 if the condition holds, else 0.
    pub fn bool_to_int(&mut self, c: T) -> T {
        let (one, zero) = (self.int(1), self.int(0));
        self.ite(c, one, zero)
    }

    /// The condition `x != 0`.
    pub fn truthy(&mut self, x: T) -> T {
        if self.is_bool(x) {
            return x;
        }
        if let Node::Ite(c, a, b) = self.node(x).clone() {
            if self.as_const(a) == Some(1) && self.as_const(b) == Some(0) {
                return c;
            }
        }
        let zero = self.int(0);
        let e = self.eq(x, zero);
        self.not(e)
    }

    /// Evaluates a term; `leaf` gives the values of unknowns and of `init` at an address.
    pub fn eval(&self, t: T, memo: &mut Vec<Option<i128>>, leaf: &mut dyn FnMut(&Node, i128) -> i128) -> i128 {
        if memo.len() < self.nodes.len() {
            memo.resize(self.nodes.len(), None);
        }
        // Iterative post-order, as summaries can nest deeply.
        let mut stack = vec![(t, false)];
        while let Some((x, ready)) = stack.pop() {
            if memo[x.0 as usize].is_some() {
                continue;
            }
            let n = self.node(x);
            if !ready {
                stack.push((x, true));
                for c in children(n) {
                    if memo[c.0 as usize].is_none() {
                        stack.push((c, false));
                    }
                }
                continue;
            }
            let g = |c: &T| memo[c.0 as usize].unwrap_or(0);
            let v = match n {
                Node::Int(v) => *v,
                Node::Bool(b) => *b as i128,
                Node::Sym(_) | Node::BSym(_) => leaf(n, 0),
                Node::Init(a) => leaf(n, g(a)),
                Node::Add(a, b) => g(a).wrapping_add(g(b)),
                Node::Sub(a, b) => g(a).wrapping_sub(g(b)),
                Node::Mul(a, b) => g(a).wrapping_mul(g(b)),
                Node::Div(a, b) => crate::interp::ops::c_div(g(a), g(b)).unwrap_or(0),
                Node::Wrap(bits, signed, a) => crate::ir::IntTy { bits: *bits, signed: *signed }.wrap(g(a)),
                Node::Bits(op, bits, signed, a, b) => {
                    let it = crate::ir::IntTy { bits: *bits, signed: *signed };
                    let (x, y) = (g(a), g(b));
                    let r = match op {
                        BitOp::And => x & y,
                        BitOp::Or => x | y,
                        BitOp::Xor => x ^ y,
                        BitOp::Shl => x.wrapping_shl((y.rem_euclid(128)) as u32),
                        BitOp::Shr => x >> y.clamp(0, 127),
                    };
                    it.wrap(r)
                }
                Node::BitNot(bits, signed, a) => crate::ir::IntTy { bits: *bits, signed: *signed }.wrap(!g(a)),
                Node::Ite(c, a, b) => {
                    if g(c) != 0 {
                        g(a)
                    } else {
                        g(b)
                    }
                }
                Node::Lt(a, b) => (g(a) < g(b)) as i128,
                Node::Le(a, b) => (g(a) <= g(b)) as i128,
                Node::Eq(a, b) => (g(a) == g(b)) as i128,
                Node::Not(a) => (g(a) == 0) as i128,
                Node::And(xs) => xs.iter().all(|x| g(x) != 0) as i128,
                Node::Or(xs) => xs.iter().any(|x| g(x) != 0) as i128,
            };
            memo[x.0 as usize] = Some(v);
        }
        memo[t.0 as usize].unwrap_or(0)
    }

    /// Writes the SMT-LIB2 definitions of every term reachable from `roots` that has no
    /// definition yet (`defined` records what was written), children first.
    pub fn define(&self, roots: &[T], defined: &mut Vec<bool>, out: &mut String) {
        if defined.len() < self.nodes.len() {
            defined.resize(self.nodes.len(), false);
        }
        let mut todo = Vec::new();
        let mut stack: Vec<T> = roots.to_vec();
        while let Some(x) = stack.pop() {
            let i = x.0 as usize;
            if defined[i] {
                continue;
            }
            defined[i] = true;
            let n = self.node(x);
            if !is_leaf(n) {
                todo.push(x);
            }
            for c in children(n) {
                if !defined[c.0 as usize] {
                    stack.push(c);
                }
            }
        }
        // Children have smaller ids than their parents, so id order defines before use.
        todo.sort();
        for x in todo {
            let sort = if self.is_bool(x) { "Bool" } else { "Int" };
            let _ = write!(out, "(define-fun t{} () {} ", x.0, sort);
            self.write_node(x, out);
            out.push_str(")\n");
        }
    }

    /// The SMT-LIB2 name or literal of a term (after [`Terms::define`]).
    pub fn name(&self, t: T) -> String {
        let mut s = String::new();
        self.write_ref(t, &mut s);
        s
    }

    fn write_ref(&self, t: T, out: &mut String) {
        match self.node(t) {
            Node::Int(v) => write_int(*v, out),
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Sym(n) => {
                let _ = write!(out, "s{n}");
            }
            Node::BSym(n) => {
                let _ = write!(out, "b{n}");
            }
            _ => {
                let _ = write!(out, "t{}", t.0);
            }
        }
    }

    fn write_node(&self, t: T, out: &mut String) {
        let r = |x: &T, o: &mut String| self.write_ref(*x, o);
        match self.node(t) {
            Node::Int(_) | Node::Bool(_) | Node::Sym(_) | Node::BSym(_) => self.write_ref(t, out),
            Node::Init(a) => {
                out.push_str("(init ");
                r(a, out);
                out.push(')');
            }
            Node::Add(a, b) => bin(out, "+", a, b, &r),
            Node::Sub(a, b) => bin(out, "-", a, b, &r),
            Node::Mul(a, b) => bin(out, "*", a, b, &r),
            Node::Div(a, b) => {
                let (mut sa, mut sb) = (String::new(), String::new());
                r(a, &mut sa);
                r(b, &mut sb);
                match self.as_const(*b) {
                    Some(d) if d > 0 => {
                        let _ = write!(out, "(ite (>= {sa} 0) (div {sa} {sb}) (- (div (- {sa}) {sb})))");
                    }
                    _ => {
                        let _ = write!(out, "(ite (>= {sa} 0) (ite (>= {sb} 0) (div {sa} {sb}) (- (div {sa} (- {sb})))) (ite (>= {sb} 0) (- (div (- {sa}) {sb})) (div (- {sa}) (- {sb}))))");
                    }
                }
            }
            Node::Wrap(bits, signed, a) => {
                let it = crate::ir::IntTy { bits: *bits, signed: *signed };
                let m = 1i128 << bits;
                let mut sa = String::new();
                r(a, &mut sa);
                let (lo, hi) = self.range(*a);
                let (mut smin, mut smax, mut sm) = (String::new(), String::new(), String::new());
                write_int(it.min(), &mut smin);
                write_int(it.max(), &mut smax);
                write_int(m, &mut sm);
                if lo.is_some_and(|l| l >= it.min() - m) && hi.is_some_and(|h| h <= it.max() + m) {
                    let _ = write!(out, "(ite (> {sa} {smax}) (- {sa} {sm}) (ite (< {sa} {smin}) (+ {sa} {sm}) {sa}))");
                } else {
                    let _ = write!(out, "(+ {smin} (mod (- {sa} {smin}) {sm}))");
                }
            }
            Node::Bits(op, bits, signed, a, b) => {
                let (mut sa, mut sb) = (String::new(), String::new());
                r(a, &mut sa);
                r(b, &mut sb);
                let f = match op {
                    BitOp::And => "bvand",
                    BitOp::Or => "bvor",
                    BitOp::Xor => "bvxor",
                    BitOp::Shl => "bvshl",
                    BitOp::Shr if *signed => "bvashr",
                    BitOp::Shr => "bvlshr",
                };
                let inner = format!("(bv2int ({f} ((_ int2bv {bits}) {sa}) ((_ int2bv {bits}) {sb})))");
                write_signed(&inner, *bits, *signed, out);
            }
            Node::BitNot(bits, signed, a) => {
                let mut sa = String::new();
                r(a, &mut sa);
                let inner = format!("(bv2int (bvnot ((_ int2bv {bits}) {sa})))");
                write_signed(&inner, *bits, *signed, out);
            }
            Node::Ite(c, a, b) => {
                out.push_str("(ite ");
                r(c, out);
                out.push(' ');
                r(a, out);
                out.push(' ');
                r(b, out);
                out.push(')');
            }
            Node::Lt(a, b) => bin(out, "<", a, b, &r),
            Node::Le(a, b) => bin(out, "<=", a, b, &r),
            Node::Eq(a, b) => bin(out, "=", a, b, &r),
            Node::Not(a) => {
                out.push_str("(not ");
                r(a, out);
                out.push(')');
            }
            Node::And(xs) | Node::Or(xs) => {
                out.push_str(if matches!(self.node(t), Node::And(_)) { "(and" } else { "(or" });
                for x in xs {
                    out.push(' ');
                    r(x, out);
                }
                out.push(')');
            }
        }
    }
}

fn bin(out: &mut String, op: &str, a: &T, b: &T, r: &dyn Fn(&T, &mut String)) {
    out.push('(');
    out.push_str(op);
    out.push(' ');
    r(a, out);
    out.push(' ');
    r(b, out);
    out.push(')');
}

fn write_signed(unsigned: &str, bits: u8, signed: bool, out: &mut String) {
    if signed {
        let half = 1i128 << (bits - 1);
        let m = 1i128 << bits;
        let _ = write!(out, "(let ((u {unsigned})) (ite (>= u {half}) (- u {m}) u))");
    } else {
        out.push_str(unsigned);
    }
}

/// An SMT-LIB2 integer literal.
pub(crate) fn write_int(v: i128, out: &mut String) {
    if v < 0 {
        let _ = write!(out, "(- {})", v.unsigned_abs());
    } else {
        let _ = write!(out, "{v}");
    }
}

fn is_leaf(n: &Node) -> bool {
    matches!(n, Node::Int(_) | Node::Bool(_) | Node::Sym(_) | Node::BSym(_))
}

/// The direct subterms of a node.
pub(crate) fn children(n: &Node) -> Vec<T> {
    match n {
        Node::Int(_) | Node::Bool(_) | Node::Sym(_) | Node::BSym(_) => Vec::new(),
        Node::Init(a) | Node::Wrap(_, _, a) | Node::BitNot(_, _, a) | Node::Not(a) => vec![*a],
        Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) | Node::Div(a, b) | Node::Bits(_, _, _, a, b) | Node::Lt(a, b) | Node::Le(a, b) | Node::Eq(a, b) => vec![*a, *b],
        Node::Ite(c, a, b) => vec![*c, *a, *b],
        Node::And(xs) | Node::Or(xs) => xs.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_and_sharing() {
        let mut t = Terms::new();
        let x = t.fresh((Some(0), Some(10)));
        let one = t.int(1);
        let a = t.add(x, one);
        let b = t.add(x, one);
        assert_eq!(a, b, "hash-consing shares equal terms");
        let w = t.wrap(32, true, a);
        assert_eq!(w, a, "an in-range value needs no wrap-around");
        let big = t.int(100);
        let c = t.lt(a, big);
        assert_eq!(t.as_bool(c), Some(true), "the interval decides x + 1 < 100");
        let two = t.int(2);
        let three = t.int(3);
        let s = t.add(two, three);
        assert_eq!(t.as_const(s), Some(5));
        let seven = t.int(-7);
        let q = t.div(seven, two);
        assert_eq!(t.as_const(q), Some(-3), "C division truncates");
        let r = t.rem(seven, two);
        assert_eq!(t.as_const(r), Some(-1), "C remainder has the dividend's sign");
    }

    #[test]
    fn eval_matches_folding() {
        let mut t = Terms::new();
        let x = t.fresh((None, None));
        let five = t.int(5);
        let m = t.rem(x, five);
        let mut memo = Vec::new();
        let v = t.eval(m, &mut memo, &mut |_, _| -12);
        assert_eq!(v, -2);
        let w = t.wrap(8, false, x);
        let mut memo = Vec::new();
        assert_eq!(t.eval(w, &mut memo, &mut |_, _| 300), 44);
    }
}
