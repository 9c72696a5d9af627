//! C types as the IR keeps them: full types for variables, scalar types for expressions.

use super::DataModel;
use std::fmt;

/// Index of a struct or union in [`super::Program::records`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(pub u32);

/// A fixed-width integer type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntTy {
    /// Width in bits (8, 16, 32 or 64).
    pub bits: u8,
    /// Signed or unsigned.
    pub signed: bool,
}

impl IntTy {
    /// Smallest representable value.
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }

    /// Largest representable value.
    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }

    /// Reduce a mathematical integer to this type, as a two's-complement machine does.
    pub fn wrap(self, v: i128) -> i128 {
        let m = 1i128 << self.bits;
        let r = v.rem_euclid(m);
        if self.signed && r > self.max() {
            r - m
        } else {
            r
        }
    }
}

/// The scalar type an expression computes in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    /// `_Bool`: 0 or 1; converting to it means `!= 0`.
    Bool,
    /// An integer type (char, short, int, long, enums).
    Int(IntTy),
    /// A pointer; its numeric value is not modelled beyond null-ness by most engines.
    Ptr,
    /// A floating-point value; engines treat it as unknown.
    Float,
}

impl Ty {
    /// `int`.
    pub const INT: Ty = Ty::Int(IntTy { bits: 32, signed: true });
    /// `unsigned int`.
    pub const UINT: Ty = Ty::Int(IntTy { bits: 32, signed: false });

    /// The value range of the type, if it is an integer or boolean.
    pub fn range(self, dm: DataModel) -> Option<(i128, i128)> {
        match self {
            Ty::Bool => Some((0, 1)),
            Ty::Int(i) => Some((i.min(), i.max())),
            Ty::Ptr => Some((0, ptr_int(dm).max())),
            Ty::Float => None,
        }
    }

    /// Reduce a mathematical integer to this type; `_Bool` means `!= 0`.
    pub fn convert(self, v: i128, dm: DataModel) -> i128 {
        match self {
            Ty::Bool => (v != 0) as i128,
            Ty::Int(i) => i.wrap(v),
            Ty::Ptr => ptr_int(dm).wrap(v),
            Ty::Float => v,
        }
    }

    /// True for integer-like types whose values the numeric engines track.
    pub fn is_integral(self) -> bool {
        matches!(self, Ty::Bool | Ty::Int(_))
    }
}

/// The unsigned integer type a pointer fits in.
pub(crate) fn ptr_int(dm: DataModel) -> IntTy {
    match dm {
        DataModel::LP64 => IntTy { bits: 64, signed: false },
        DataModel::ILP32 => IntTy { bits: 32, signed: false },
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "_Bool"),
            Ty::Int(i) => write!(f, "{}{}", if i.signed { "i" } else { "u" }, i.bits),
            Ty::Ptr => write!(f, "ptr"),
            Ty::Float => write!(f, "float"),
        }
    }
}

/// A full C type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CType {
    /// `void`.
    Void,
    /// `_Bool`.
    Bool,
    /// An integer type; `name` keeps the spelling for printing (`unsigned long`, `enum e`).
    Int(IntTy, String),
    /// `float`, `double`, `long double`: its size in bytes (4, 8, 16 or, under ILP32, 12),
    /// which only `sizeof`, alignment and offsets read; values are not interpreted.
    Float(u8),
    /// A pointer.
    Pointer(Box<CType>),
    /// An array, with its length when known.
    Array(Box<CType>, Option<u64>),
    /// A struct or union.
    Record(RecordId),
    /// A function type (the target of a function pointer).
    Function,
    /// `pthread_mutex_t` (and spinlocks): an opaque lock object.
    Mutex,
    /// Another opaque library type (`pthread_attr_t`, `pthread_cond_t`, ...).
    Opaque(String),
}

impl CType {
    /// `int`.
    pub fn int() -> CType {
        CType::Int(IntTy { bits: 32, signed: true }, "int".into())
    }

    /// The scalar type used when a value of this type is loaded.
    pub fn scalar(&self, _dm: DataModel) -> Ty {
        match self {
            CType::Bool => Ty::Bool,
            CType::Int(i, _) => Ty::Int(*i),
            CType::Pointer(_) | CType::Array(..) | CType::Function => Ty::Ptr,
            CType::Float(_) => Ty::Float,
            // Loading an aggregate or opaque object never reaches an engine as a number;
            // treat it as an unknown pointer-sized value.
            CType::Void | CType::Record(_) | CType::Mutex | CType::Opaque(_) => Ty::Ptr,
        }
    }

    /// True for types whose values are single numbers (integers, booleans, pointers, floats).
    pub fn is_scalar(&self) -> bool {
        matches!(self, CType::Bool | CType::Int(..) | CType::Pointer(_) | CType::Float(_))
    }

    /// True for integer-like types.
    pub fn is_integral(&self) -> bool {
        matches!(self, CType::Bool | CType::Int(..))
    }

    /// The pointee of a pointer, or the element of an array.
    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Pointer(t) | CType::Array(t, _) => Some(t),
            _ => None,
        }
    }
}

/// A struct or union definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tag, or a generated name for anonymous records.
    pub name: String,
    /// Union rather than struct.
    pub is_union: bool,
    /// Fields in declaration order.
    pub fields: Vec<(String, CType)>,
}

/// Prints a type in C-like spelling, given the record table.
pub(crate) fn type_name(t: &CType, records: &[Record]) -> String {
    match t {
        CType::Void => "void".into(),
        CType::Bool => "_Bool".into(),
        CType::Int(_, n) => n.clone(),
        CType::Float(4) => "float".into(),
        CType::Float(8) => "double".into(),
        CType::Float(_) => "long double".into(),
        CType::Pointer(p) => format!("{}*", type_name(p, records)),
        CType::Array(..) => {
            // C writes the outermost length first: an array of 3 `int[4]` is `int[3][4]`.
            let mut dims = String::new();
            let mut base = t;
            while let CType::Array(e, n) = base {
                dims += &n.map_or("[]".into(), |n| format!("[{n}]"));
                base = e;
            }
            format!("{}{}", type_name(base, records), dims)
        }
        CType::Record(r) => {
            let rec = &records[r.0 as usize];
            format!("{} {}", if rec.is_union { "union" } else { "struct" }, rec.name)
        }
        CType::Function => "function".into(),
        CType::Mutex => "pthread_mutex_t".into(),
        CType::Opaque(n) => n.clone(),
    }
}
