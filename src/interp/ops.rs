//! Operator semantics shared by the interpreter and the encoder's constant folding, so both
//! compute exactly what C computes on the machine the program was lowered for.

use crate::ir::{BinOp, CType, DataModel, Expr, Program, Ty, UnOp};

/// The C type of an expression, as far as the IR keeps it (pointer casts lose the pointee,
/// which is then `void`).
pub(crate) fn ctype_of(prog: &Program, e: &Expr) -> CType {
    match e {
        Expr::Load(lv) => prog.lval_type(lv),
        Expr::AddrOf(lv) => CType::Pointer(Box::new(prog.lval_type(lv))),
        Expr::Binary(BinOp::Add | BinOp::Sub, a, _, Ty::Ptr) => ctype_of(prog, a),
        Expr::Cast(Ty::Ptr, inner) => match ctype_of(prog, inner) {
            t @ (CType::Pointer(_) | CType::Array(..)) => t,
            _ => CType::Pointer(Box::new(CType::Void)),
        },
        Expr::Const(_, t) | Expr::Unary(_, _, t) | Expr::Binary(_, _, _, t) | Expr::Cast(t, _) | Expr::Nondet(t) | Expr::Havoc(t, _) => match t {
            Ty::Ptr => CType::Pointer(Box::new(CType::Void)),
            Ty::Bool => CType::Bool,
            Ty::Int(i) => CType::Int(*i, String::new()),
            Ty::Float => CType::Float(8),
        },
    }
}

/// True when both operands of a subtraction are pointers (the result counts elements).
pub(crate) fn is_pointer_difference(prog: &Program, op: BinOp, a: &Expr, b: &Expr) -> bool {
    op == BinOp::Sub && matches!(ctype_of(prog, a), CType::Pointer(_) | CType::Array(..)) && matches!(ctype_of(prog, b), CType::Pointer(_) | CType::Array(..))
}

/// C division, truncating towards zero; `None` when dividing by zero.
pub(crate) fn c_div(a: i128, b: i128) -> Option<i128> {
    if b == 0 {
        None
    } else {
        a.checked_div(b)
    }
}

/// C remainder, with the sign of the dividend; `None` when dividing by zero.
pub(crate) fn c_rem(a: i128, b: i128) -> Option<i128> {
    if b == 0 {
        None
    } else {
        a.checked_rem(b)
    }
}

/// Width in bits of a scalar type's machine representation.
pub(crate) fn bits_of(t: Ty, dm: DataModel) -> u32 {
    match t {
        Ty::Bool => 1,
        Ty::Int(i) => i.bits as u32,
        Ty::Ptr => crate::ir::types::ptr_int(dm).bits as u32,
        Ty::Float => 64,
    }
}

/// The message for signed arithmetic that leaves its type's range.
pub(crate) const SIGNED_OVERFLOW: &str = "signed integer overflow (undefined behaviour)";

/// Whether a signed type overflows on this mathematical result.
fn overflows(t: Ty, v: i128) -> bool {
    match t {
        Ty::Int(i) if i.signed => v < i.min() || v > i.max(),
        _ => false,
    }
}

/// A unary operator on a value of type `t`; the result is converted to `t`. Negating the
/// smallest signed value is undefined.
pub(crate) fn unary(op: UnOp, x: i128, t: Ty, dm: DataModel) -> Result<i128, &'static str> {
    Ok(match op {
        UnOp::Neg => {
            if overflows(t, -x) {
                return Err(SIGNED_OVERFLOW);
            }
            t.convert(x.wrapping_neg(), dm)
        }
        UnOp::BitNot => t.convert(!x, dm),
        UnOp::Not => (x == 0) as i128,
    })
}

/// A non-pointer binary operator computed in type `t`; an error on what C leaves undefined:
/// division by zero, signed overflow, a shift by a negative amount or past the width.
pub(crate) fn binary(op: BinOp, a: i128, b: i128, t: Ty, dm: DataModel) -> Result<i128, &'static str> {
    let bits = bits_of(t, dm) as i128;
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div => c_div(a, b).ok_or("division by zero")?,
        BinOp::Rem => c_rem(a, b).ok_or("division by zero")?,
        BinOp::Shl => {
            if b < 0 || b >= bits {
                return Err("a shift past the width of its type");
            }
            a.wrapping_shl(b as u32)
        }
        BinOp::Shr => {
            if b < 0 || b >= bits {
                return Err("a shift past the width of its type");
            }
            // Values are kept converted to their type, so an arithmetic shift of the
            // (possibly negative) value is right for signed and unsigned alike.
            a >> b
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Lt => return Ok((a < b) as i128),
        BinOp::Le => return Ok((a <= b) as i128),
        BinOp::Gt => return Ok((a > b) as i128),
        BinOp::Ge => return Ok((a >= b) as i128),
        BinOp::Eq => return Ok((a == b) as i128),
        BinOp::Ne => return Ok((a != b) as i128),
    };
    if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) && overflows(t, r) {
        return Err(SIGNED_OVERFLOW);
    }
    Ok(t.convert(r, dm))
}
