//! Resolving C declarations into [`CType`]s: typedefs, struct/union tags, enum constants,
//! sizes under a data model, and constant expressions.

use super::attributes::TextAttributes;
use crate::ir::types::{CType, IntTy, Record, RecordId};
use crate::ir::DataModel;
use hashbrown::HashMap;
use lang_c::ast::*;
use lang_c::span::Node;

/// A declared name with its resolved type.
#[derive(Clone, Debug)]
pub(crate) struct Declared {
    /// The identifier, absent for abstract declarators.
    pub name: Option<String>,
    /// Its type.
    pub ty: CType,
    /// For function declarators: the parameters (name, type); `None` otherwise.
    pub params: Option<Vec<(Option<String>, CType)>>,
    /// Return type, for function declarators.
    pub ret: Option<CType>,
}

/// The type environment of one translation unit.
pub(crate) struct TypeEnv {
    /// Data model for sizes.
    pub dm: DataModel,
    typedefs: HashMap<String, CType>,
    /// Struct and union definitions, indexed by [`RecordId`].
    pub records: Vec<Record>,
    tags: HashMap<String, RecordId>,
    /// Enumeration constants: value and type (`int` when the value fits it, else GCC gives
    /// the constant its enumeration's type).
    enum_consts: HashMap<String, (i128, IntTy)>,
    /// Types of the `typeof(expression)` operands, by the operand's span: the lowerer types
    /// them in their scope just before the declaration or type name that contains them.
    pub typeofs: HashMap<(usize, usize), CType>,
    /// Signatures of function-pointer typedefs, which [`CType`] does not keep.
    pub typedef_sigs: HashMap<String, Signature>,
    /// Signatures of function-pointer fields, by record and field position.
    pub field_sigs: HashMap<(RecordId, usize), Signature>,
    /// Widths of bit-fields narrower than their type, by record and field position.
    pub bit_widths: HashMap<(RecordId, usize), u8>,
    /// Typedef names of `_Atomic` types (`atomic_int`).
    pub atomic_typedefs: hashbrown::HashSet<String>,
    /// An `_Atomic` object other than a whole declared variable or an element of one (a
    /// member, a parameter, a pointee, a type name): the lowerer cannot tell which lvalues
    /// designate it.
    pub atomic_elsewhere: bool,
    /// Layout directives the parser loses (attributes after `struct`, `#pragma pack`).
    pub text_attributes: TextAttributes,
    /// GCC layout attributes of struct and union definitions.
    record_attrs: HashMap<RecordId, RecordAttrs>,
    /// Layout attributes and bit-field widths of members, by record and member position.
    member_attrs: HashMap<(RecordId, usize), MemberAttrs>,
    /// Alignments set by `aligned` on a typedef (which, unlike elsewhere, may also lower it).
    typedef_aligns: HashMap<String, u64>,
    /// Typedefs whose attributes give a type the IR cannot represent, with the construct:
    /// using one is an unsupported construct (declaring it in a header is not).
    poisoned_typedefs: HashMap<String, String>,
    /// Attributes of the definition the specifiers being resolved contain, written after it
    /// (`struct S { ... } __attribute__((packed))`): taken by that definition.
    pending_trailing: Option<LayoutAttrs>,
    /// Unsupported constructs met while resolving types: offset in the text and construct.
    pub unsupported: Vec<(usize, String)>,
    /// Enumeration types, by tag.
    enum_tags: HashMap<String, CType>,
}

/// The largest alignment of the x86 targets (`__BIGGEST_ALIGNMENT__`), which a bare
/// `aligned` attribute gives, on x86-64 and on i386 alike.
pub(crate) const BIGGEST_ALIGNMENT: u64 = 16;

/// What GCC attributes say about a declaration's layout and width.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LayoutAttrs {
    /// `packed`.
    pub packed: bool,
    /// `aligned(n)` (the largest, when there are several).
    pub aligned: Option<u64>,
    /// `mode(...)`: the integer width in bits.
    pub mode: Option<u8>,
    /// The first attribute the IR cannot honour, as an unsupported construct.
    pub unsupported: Option<String>,
}

impl LayoutAttrs {
    fn merge(mut self, o: LayoutAttrs) -> LayoutAttrs {
        self.packed |= o.packed;
        self.aligned = match (self.aligned, o.aligned) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        self.mode = o.mode.or(self.mode);
        self.unsupported = self.unsupported.or(o.unsupported);
        self
    }
}

/// Layout attributes of a struct or union definition.
#[derive(Clone, Copy, Debug, Default)]
struct RecordAttrs {
    packed: bool,
    aligned: Option<u64>,
    /// The `#pragma pack` limit in force at the definition.
    pack: Option<u64>,
}

/// Layout attributes of one member.
#[derive(Clone, Copy, Debug, Default)]
struct MemberAttrs {
    packed: bool,
    aligned: Option<u64>,
    /// The alignment its typedef name sets, replacing its type's.
    type_align: Option<u64>,
    /// Its width, for a bit-field.
    bits: Option<u64>,
}

/// Where GCC puts the members of a struct or union, and its size and alignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RecordLayout {
    /// Size in bytes, padding included.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// Each member's first bit, counted from the start of the record.
    pub bit_offsets: Vec<u64>,
}

/// The parameter types and return type of a function pointer's declared type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Signature {
    /// Parameter types; empty also for `()`, which leaves them unspecified.
    pub params: Vec<CType>,
    /// Return type.
    pub ret: CType,
}

impl Signature {
    /// The signature a declarator of a function pointer (or an array of them) spells out, or
    /// that its typedef name carries.
    pub(crate) fn of(decl: &Declared, typedef: Option<&Signature>) -> Option<Signature> {
        let mut t = &decl.ty;
        while let CType::Array(e, _) = t {
            t = e;
        }
        if !matches!(t, CType::Pointer(p) if matches!(**p, CType::Function)) {
            return None;
        }
        match (&decl.params, &decl.ret) {
            (Some(ps), Some(r)) => Some(Signature { params: ps.iter().map(|(_, t)| t.clone()).collect(), ret: r.clone() }),
            _ => typedef.cloned(),
        }
    }
}

/// Where a struct, union or enum specifier with a definition (a body) ends: attributes after
/// it apply to the type it defines.
fn definition_end(t: &Node<TypeSpecifier>) -> Option<usize> {
    match &t.node {
        TypeSpecifier::Struct(st) if st.node.declarations.is_some() => Some(t.span.end),
        TypeSpecifier::Enum(et) if !et.node.enumerators.is_empty() => Some(t.span.end),
        _ => None,
    }
}

/// The typedef name among declaration specifiers, if the base type is one.
pub(crate) fn typedef_name<'s>(mut specs: impl Iterator<Item = &'s TypeSpecifier>) -> Option<&'s str> {
    specs.find_map(|t| match t {
        TypeSpecifier::TypedefName(id) => Some(id.node.name.as_str()),
        _ => None,
    })
}

/// Result of resolving specifiers: the type and the storage class seen.
pub(crate) struct Specs {
    /// The base type.
    pub ty: CType,
    /// `typedef` storage class.
    pub is_typedef: bool,
    /// `extern` storage class.
    pub is_extern: bool,
    /// `static` storage class.
    pub is_static: bool,
    /// `_Thread_local`.
    pub is_thread_local: bool,
    /// `_Atomic`, as a qualifier, a specifier or through a typedef name.
    pub is_atomic: bool,
    /// Attributes among the specifiers that apply to the declared names (not those written
    /// after a struct, union or enum definition, which apply to it).
    pub attrs: LayoutAttrs,
    /// The alignment the typedef name of the base type sets, if it sets one.
    pub typedef_align: Option<u64>,
}

/// A type that is not supported, with the construct's name.
pub(crate) type TypeError = String;

/// `int`, the type of every enumeration constant that fits it.
const ENUM_INT: IntTy = IntTy { bits: 32, signed: true };

fn int(bits: u8, signed: bool, name: &str) -> CType {
    CType::Int(IntTy { bits, signed }, name.to_string())
}

/// The typedef name of the barrier state record.
const BARRIER: &str = "pthread_barrier_t";

impl TypeEnv {
    /// An empty environment.
    pub(crate) fn new(dm: DataModel) -> TypeEnv {
        let mut env = TypeEnv {
            dm,
            typedefs: HashMap::new(),
            records: Vec::new(),
            tags: HashMap::new(),
            enum_consts: HashMap::new(),
            typeofs: HashMap::new(),
            typedef_sigs: HashMap::new(),
            field_sigs: HashMap::new(),
            bit_widths: HashMap::new(),
            atomic_typedefs: hashbrown::HashSet::new(),
            atomic_elsewhere: false,
            text_attributes: TextAttributes::default(),
            record_attrs: HashMap::new(),
            member_attrs: HashMap::new(),
            typedef_aligns: HashMap::new(),
            poisoned_typedefs: HashMap::new(),
            pending_trailing: None,
            unsupported: Vec::new(),
            enum_tags: HashMap::new(),
        };
        // GCC's built-in typedef that lang-c also knows in its GNU flavour.
        env.typedefs.insert("__builtin_va_list".into(), CType::Opaque("va_list".into()));
        env
    }

    /// The value and type of an enumeration constant.
    pub(crate) fn enum_const(&self, name: &str) -> Option<(i128, CType)> {
        self.enum_consts.get(name).map(|&(v, t)| (v, int(t.bits, t.signed, if t == ENUM_INT { "int" } else { "enum" })))
    }

    /// The type a typedef name stands for.
    #[cfg(test)]
    pub(crate) fn typedef(&self, name: &str) -> Option<&CType> {
        self.typedefs.get(name)
    }

    /// Records a typedef. Library types that the IR models specially are recognised by name.
    pub(crate) fn add_typedef(&mut self, name: &str, ty: CType) {
        let ty = match name {
            "pthread_mutex_t" | "pthread_spinlock_t" => CType::Mutex,
            // Not reserved by the C library: a program's own lock structure is kept.
            "spinlock_t" if !matches!(ty, CType::Record(_)) => CType::Mutex,
            // A semaphore's count, and a read-write lock's state (-1 held for writing, n > 0
            // held by n readers): the front-end models them on these numbers.
            "sem_t" | "pthread_rwlock_t" | "pthread_once_t" => CType::Int(IntTy { bits: 32, signed: true }, name.to_string()),
            "pthread_cond_t" | "pthread_attr_t" | "pthread_mutexattr_t" | "pthread_condattr_t" | "pthread_barrierattr_t" => CType::Opaque(name.to_string()),
            // A key indexes each thread's table of values, as in glibc.
            "pthread_key_t" => CType::Int(IntTy { bits: 32, signed: false }, name.to_string()),
            "pthread_barrier_t" => self.barrier_record(),
            _ => ty,
        };
        self.typedefs.insert(name.to_string(), ty);
    }

    /// The state a barrier is modelled on: how many threads it waits for, how many of the
    /// current round have arrived, and the round, which advances when the last one arrives.
    fn barrier_record(&mut self) -> CType {
        if let Some(CType::Record(r)) = self.typedefs.get(BARRIER) {
            return CType::Record(*r);
        }
        let id = self.new_record(None, false);
        let u = CType::Int(IntTy { bits: 32, signed: false }, "unsigned int".into());
        let rec = &mut self.records[id.0 as usize];
        rec.name = BARRIER.into();
        rec.fields = vec![("count".into(), u.clone()), ("arrived".into(), u.clone()), ("round".into(), u)];
        CType::Record(id)
    }

    /// Whether a record is the one [`TypeEnv::add_typedef`] gives `pthread_barrier_t`.
    pub(crate) fn is_barrier(&self, r: RecordId) -> bool {
        matches!(self.typedefs.get(BARRIER), Some(CType::Record(b)) if *b == r)
    }

    /// Resolves declaration specifiers.
    pub(crate) fn specs(&mut self, specs: &[Node<DeclarationSpecifier>]) -> Result<Specs, TypeError> {
        let mut out = Specs { ty: CType::Void, is_typedef: false, is_extern: false, is_static: false, is_thread_local: false, is_atomic: false, attrs: LayoutAttrs::default(), typedef_align: None };
        let mut ts = Vec::new();
        let mut exts = Vec::new();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::Extension(e) => exts.push((s.span.start, e.as_slice())),
                DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    StorageClassSpecifier::Typedef => out.is_typedef = true,
                    StorageClassSpecifier::Extern => out.is_extern = true,
                    StorageClassSpecifier::Static => out.is_static = true,
                    StorageClassSpecifier::ThreadLocal => out.is_thread_local = true,
                    _ => {}
                },
                DeclarationSpecifier::TypeSpecifier(t) => {
                    out.is_atomic |= self.is_atomic_specifier(&t.node);
                    ts.push(t)
                }
                DeclarationSpecifier::TypeQualifier(q) => out.is_atomic |= matches!(q.node, TypeQualifier::Atomic),
                _ => {}
            }
        }
        out.typedef_align = typedef_name(ts.iter().map(|t| &t.node)).and_then(|n| self.typedef_aligns.get(n).copied());
        (out.ty, out.attrs) = self.base_with_attrs(&ts, &exts)?;
        Ok(out)
    }

    /// Resolves the base type of a specifier list whose attribute lists (`exts`, each with its
    /// offset) are split at the end of the struct, union or enum definition the list contains:
    /// those after it belong to that definition (`struct S { ... } __attribute__((packed))`),
    /// the others, returned, to the declared names.
    fn base_with_attrs(&mut self, ts: &[&Node<TypeSpecifier>], exts: &[(usize, &[Node<Extension>])]) -> Result<(CType, LayoutAttrs), TypeError> {
        let def_end = ts.iter().find_map(|t| definition_end(t));
        let (mut own, mut trailing) = (LayoutAttrs::default(), LayoutAttrs::default());
        for &(at, e) in exts {
            let a = self.layout_attrs(e);
            if def_end.is_some_and(|end| at >= end) {
                trailing = trailing.merge(a);
            } else {
                own = own.merge(a);
            }
        }
        self.pending_trailing = def_end.map(|_| trailing);
        let t = self.base(ts);
        self.pending_trailing = None;
        Ok((t?, own))
    }

    fn is_atomic_specifier(&self, t: &TypeSpecifier) -> bool {
        match t {
            TypeSpecifier::Atomic(_) => true,
            TypeSpecifier::TypedefName(id) => self.atomic_typedefs.contains(&id.node.name),
            _ => false,
        }
    }

    /// Resolves the specifiers of a type name or struct field.
    pub(crate) fn spec_quals(&mut self, specs: &[Node<SpecifierQualifier>]) -> Result<CType, TypeError> {
        let (t, own) = self.spec_quals_attrs(specs)?;
        // A type name has no declaration to carry its attributes: one that changes the type
        // is not followed.
        if own.mode.is_some() || own.unsupported.is_some() {
            let at = specs.first().map_or(0, |s| s.span.start);
            self.unsupported.push((at, own.unsupported.unwrap_or_else(|| "`__attribute__((mode))` in a type name".into())));
        }
        Ok(t)
    }

    /// [`TypeEnv::spec_quals`], also giving the attributes among the specifiers that apply
    /// to the declared names (those after a definition apply to it).
    fn spec_quals_attrs(&mut self, specs: &[Node<SpecifierQualifier>]) -> Result<(CType, LayoutAttrs), TypeError> {
        // A member or a type name (`sizeof`, casts, pointees) of `_Atomic` type.
        let atomic = specs.iter().any(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => self.is_atomic_specifier(&t.node),
            SpecifierQualifier::TypeQualifier(q) => matches!(q.node, TypeQualifier::Atomic),
            _ => false,
        });
        self.atomic_elsewhere |= atomic;
        let ts: Vec<&Node<TypeSpecifier>> = specs
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(t),
                _ => None,
            })
            .collect();
        let exts: Vec<(usize, &[Node<Extension>])> = specs
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::Extension(e) => Some((s.span.start, e.as_slice())),
                _ => None,
            })
            .collect();
        self.base_with_attrs(&ts, &exts)
    }

    fn base(&mut self, ts: &[&Node<TypeSpecifier>]) -> Result<CType, TypeError> {
        let (mut longs, mut short, mut char_, mut int_, mut unsigned, mut signed) = (0, false, false, false, false, false);
        let mut other: Option<CType> = None;
        for t in ts {
            match &t.node {
                TypeSpecifier::Void => other = Some(CType::Void),
                TypeSpecifier::Char => char_ = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Int => int_ = true,
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Float => other = Some(CType::Float(4)),
                TypeSpecifier::Double => other = Some(CType::Float(8)),
                TypeSpecifier::TS18661Float(f) => {
                    let bytes = match f.format {
                        TS18661FloatFormat::BinaryInterchange | TS18661FloatFormat::DecimalInterchange => f.width / 8,
                        // `_Float32x` is at least as wide as `_Float64`, and so on.
                        TS18661FloatFormat::BinaryExtended | TS18661FloatFormat::DecimalExtended => f.width / 4,
                    };
                    other = Some(CType::Float(bytes.clamp(4, 16) as u8))
                }
                TypeSpecifier::Signed => signed = true,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Bool => other = Some(CType::Bool),
                TypeSpecifier::Complex => return Err("complex numbers".into()),
                TypeSpecifier::Atomic(tn) => other = Some(self.type_name(&tn.node)?),
                TypeSpecifier::Struct(st) => other = Some(self.record(&st.node)?),
                TypeSpecifier::Enum(et) => other = Some(self.enumeration(&et.node, t.span.start)?),
                TypeSpecifier::TypedefName(id) => {
                    if let Some(what) = self.poisoned_typedefs.get(&id.node.name) {
                        self.unsupported.push((id.span.start, what.clone()));
                    }
                    other = Some(self.typedefs.get(&id.node.name).cloned().ok_or_else(|| format!("unknown type name `{}`", id.node.name))?)
                }
                TypeSpecifier::TypeOf(t) => match &t.node {
                    TypeOf::Type(tn) => other = Some(self.type_name(&tn.node)?),
                    TypeOf::Expression(e) => other = Some(self.typeofs.get(&(e.span.start, e.span.end)).cloned().ok_or("`typeof` of an expression outside a declaration or type name")?),
                },
            }
        }
        if let Some(o) = other {
            if let CType::Float(8) = o {
                // x87 extended precision, padded to 12 bytes (i386) or 16 (x86-64).
                if longs > 0 {
                    return Ok(CType::Float(if self.dm == DataModel::ILP32 { 12 } else { 16 }));
                }
            }
            if !matches!(o, CType::Float(_)) || (!char_ && !short && !int_) {
                return Ok(o);
            }
        }
        let long_bits = match self.dm {
            DataModel::LP64 => 64,
            DataModel::ILP32 => 32,
        };
        let signed_ = !unsigned;
        let name = |base: &str| {
            if unsigned {
                format!("unsigned {base}")
            } else if signed && base == "char" {
                "signed char".into()
            } else {
                base.to_string()
            }
        };
        Ok(if char_ {
            int(8, signed_, &name("char"))
        } else if short {
            int(16, signed_, &name("short"))
        } else if longs >= 2 {
            int(64, signed_, &name("long long"))
        } else if longs == 1 {
            int(long_bits, signed_, &name("long"))
        } else {
            int(32, signed_, &name("int"))
        })
    }

    /// Resolves a type name (as in casts and `sizeof`).
    pub(crate) fn type_name(&mut self, tn: &TypeName) -> Result<CType, TypeError> {
        let base = self.spec_quals(&tn.specifiers)?;
        match &tn.declarator {
            Some(d) => Ok(self.declarator(base, &d.node)?.ty),
            None => Ok(base),
        }
    }

    /// Applies a declarator to a base type.
    pub(crate) fn declarator(&mut self, base: CType, d: &Declarator) -> Result<Declared, TypeError> {
        let mut ty = base;
        let mut params = None;
        let mut ret = None;
        for der in array_suffixes_innermost_first(&d.derived) {
            match &der.node {
                DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => ty = CType::Pointer(Box::new(ty)),
                DerivedDeclarator::Array(a) => {
                    let len = match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => self.const_eval(&e.node).map(|n| n.max(0) as u64),
                        _ => None,
                    };
                    ty = CType::Array(Box::new(ty), len);
                }
                DerivedDeclarator::Function(f) => {
                    let mut ps = Vec::new();
                    for p in &f.node.parameters {
                        let s = self.specs(&p.node.specifiers)?;
                        self.atomic_elsewhere |= s.is_atomic;
                        let mut pd = match &p.node.declarator {
                            Some(dd) => self.declarator(s.ty.clone(), &dd.node)?,
                            None => Declared { name: None, ty: s.ty.clone(), params: None, ret: None },
                        };
                        if let Some(dd) = &p.node.declarator {
                            let mut s = s;
                            s.attrs = s.attrs.merge(self.layout_attrs(&p.node.extensions));
                            self.declaration_attributes(&s, &dd.node, &mut pd, dd.span.start);
                        }
                        // `f(void)` declares no parameters.
                        if pd.name.is_none() && matches!(pd.ty, CType::Void) {
                            continue;
                        }
                        ps.push((pd.name, decay(pd.ty)));
                    }
                    params = Some(ps);
                    ret = Some(ty);
                    ty = CType::Function;
                }
                DerivedDeclarator::KRFunction(names) => {
                    params = Some(names.iter().map(|n| (Some(n.node.name.clone()), CType::int())).collect());
                    ret = Some(ty);
                    ty = CType::Function;
                }
            }
        }
        match &d.kind.node {
            DeclaratorKind::Abstract => Ok(Declared { name: None, ty, params, ret }),
            DeclaratorKind::Identifier(id) => Ok(Declared { name: Some(id.node.name.clone()), ty, params, ret }),
            DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, &inner.node)?;
                if r.params.is_none() {
                    r.params = params;
                    r.ret = ret;
                }
                Ok(r)
            }
        }
    }

    fn record(&mut self, st: &StructType) -> Result<CType, TypeError> {
        // Taken before the members' specifiers can set their own.
        let trailing = self.pending_trailing.take();
        let keyword = st.kind.span.start;
        let is_union = matches!(st.kind.node, StructKind::Union);
        let tag = st.identifier.as_ref().map(|i| i.node.name.clone());
        let id = match &tag {
            Some(t) if st.declarations.is_none() => {
                if let Some(id) = self.tags.get(t) {
                    return Ok(CType::Record(*id));
                }
                self.new_record(Some(t.clone()), is_union)
            }
            Some(t) => match self.tags.get(t) {
                // A definition completes an earlier forward declaration.
                Some(id) if self.records[id.0 as usize].fields.is_empty() => *id,
                _ => self.new_record(Some(t.clone()), is_union),
            },
            None => self.new_record(None, is_union),
        };
        if let Some(decls) = &st.declarations {
            let attrs = self.keyword_attrs(keyword).merge(trailing.unwrap_or_default());
            if let Some(what) = &attrs.unsupported {
                self.unsupported.push((keyword, what.clone()));
            }
            let pack = match self.text_attributes.pack_at(keyword) {
                Ok(p) => p,
                Err((at, what)) => {
                    self.unsupported.push((at, format!("{what}: a form of `#pragma pack` the front-end does not follow")));
                    None
                }
            };
            self.record_attrs.insert(id, RecordAttrs { packed: attrs.packed, aligned: attrs.aligned, pack });
            let mut fields = Vec::new();
            for d in decls {
                let StructDeclaration::Field(f) = &d.node else { continue };
                let (base, field_attrs) = self.spec_quals_attrs(&f.node.specifiers)?;
                if f.node.declarators.is_empty() {
                    // An anonymous struct or union member: its fields are reachable by name.
                    if let CType::Record(inner) = &base {
                        let inner_fields = self.records[inner.0 as usize].fields.clone();
                        if inner_fields.iter().all(|(n, _)| !n.is_empty()) {
                            fields.push((String::new(), base.clone()));
                            continue;
                        }
                    }
                }
                let tname = typedef_name(f.node.specifiers.iter().filter_map(|s| match &s.node {
                    SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                    _ => None,
                }));
                let type_align = tname.and_then(|n| self.typedef_aligns.get(n).copied());
                for sd in &f.node.declarators {
                    let mut decl = match &sd.node.declarator {
                        Some(dd) => self.declarator(base.clone(), &dd.node)?,
                        None => Declared { name: None, ty: base.clone(), params: None, ret: None },
                    };
                    let own = match &sd.node.declarator {
                        Some(dd) => self.layout_attrs(&dd.node.extensions),
                        None => LayoutAttrs::default(),
                    };
                    let a = field_attrs.clone().merge(own);
                    self.apply_mode(&a, &mut decl, sd.span.start);
                    if let Some(what) = &a.unsupported {
                        self.unsupported.push((sd.span.start, what.clone()));
                    }
                    let bits = sd.node.bit_width.as_ref().and_then(|w| self.const_eval(&w.node)).map(|w| w.max(0) as u64);
                    let plain = sd.node.declarator.as_ref().is_none_or(|dd| dd.node.derived.iter().all(|x| matches!(x.node, DerivedDeclarator::Array(_))));
                    let m = MemberAttrs { packed: a.packed, aligned: a.aligned, type_align: type_align.filter(|_| plain), bits };
                    self.member_attrs.insert((id, fields.len()), m);
                    if let Some(sig) = Signature::of(&decl, tname.and_then(|n| self.typedef_sigs.get(n))) {
                        self.field_sigs.insert((id, fields.len()), sig);
                    }
                    if let (Some(w), CType::Int(it, _)) = (sd.node.bit_width.as_ref().and_then(|w| self.const_eval(&w.node)), &decl.ty) {
                        if w > 0 && w < it.bits as i128 {
                            self.bit_widths.insert((id, fields.len()), w as u8);
                        }
                    }
                    // C requires complete member types; a record inside itself by value would
                    // make its size, and every walk over its members, infinite.
                    if self.contains_by_value(&decl.ty, id) {
                        let what = if is_union { "union" } else { "struct" };
                        return Err(format!(
                            "member `{}` has the incomplete type `{what} {}` (a record cannot contain itself; use a pointer)",
                            decl.name.unwrap_or_default(),
                            self.records[id.0 as usize].name
                        ));
                    }
                    fields.push((decl.name.unwrap_or_default(), decl.ty));
                }
            }
            self.records[id.0 as usize].fields = fields;
        }
        Ok(CType::Record(id))
    }

    /// What GCC attributes among `exts` say about layout; the rest are ignored (`unused`,
    /// `noreturn`, `format`, `section`, ...: they change no value or layout).
    pub(crate) fn layout_attrs(&mut self, exts: &[Node<Extension>]) -> LayoutAttrs {
        let mut a = LayoutAttrs::default();
        for e in exts {
            let Extension::Attribute(at) = &e.node else { continue };
            let name = at.name.node.trim_start_matches("__").trim_end_matches("__");
            let bad = match name {
                "packed" => {
                    a.packed = true;
                    None
                }
                "aligned" => match at.arguments.first() {
                    None => {
                        a.aligned = Some(a.aligned.unwrap_or(1).max(BIGGEST_ALIGNMENT));
                        None
                    }
                    Some(x) => match self.attribute_int(&x.node) {
                        Some(n) if n.is_power_of_two() => {
                            a.aligned = Some(a.aligned.unwrap_or(1).max(n));
                            None
                        }
                        _ => Some("`__attribute__((aligned))` with an argument that is not a constant power of two".to_string()),
                    },
                },
                "mode" => match at.arguments.first().map(|x| &x.node) {
                    Some(Expression::Identifier(id)) => match self.mode_bits(id.node.name.trim_start_matches("__").trim_end_matches("__")) {
                        Ok(bits) => {
                            a.mode = Some(bits);
                            None
                        }
                        Err(what) => Some(what),
                    },
                    _ => Some("`__attribute__((mode))` without a machine mode".to_string()),
                },
                "vector_size" | "transparent_union" | "scalar_storage_order" | "ms_struct" | "warn_if_not_aligned" => {
                    Some(format!("`__attribute__(({name}))`: the layout or meaning it gives is not modelled"))
                }
                _ => None,
            };
            if a.unsupported.is_none() {
                a.unsupported = bad;
            }
        }
        a
    }

    /// The attributes written after the `struct`, `union` or `enum` keyword at `offset`.
    fn keyword_attrs(&mut self, offset: usize) -> LayoutAttrs {
        let Some(lists) = self.text_attributes.after_keyword.get(&offset).cloned() else { return LayoutAttrs::default() };
        // The lists are parsed as those of a declarator, where lang-c keeps them.
        let carrier = format!("int __duet_attribute_carrier {};", lists.join(" "));
        let parsed = lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), carrier);
        let exts = parsed.ok().and_then(|p| match p.unit.0.into_iter().next().map(|e| e.node) {
            Some(ExternalDeclaration::Declaration(d)) => d.node.declarators.into_iter().next().map(|i| i.node.declarator.node.extensions),
            _ => None,
        });
        match exts {
            Some(exts) => self.layout_attrs(&exts),
            None => LayoutAttrs { unsupported: Some(format!("`{}` after a `struct`, `union` or `enum` keyword, which the front-end cannot read", lists.join(" "))), ..Default::default() },
        }
    }

    /// The value of an attribute's integer argument: a constant, or `sizeof` or `_Alignof` of
    /// a type.
    fn attribute_int(&mut self, e: &Expression) -> Option<u64> {
        let v = match e {
            Expression::SizeOfTy(t) => self.type_name(&t.node.0.node).ok().map(|t| self.size_of(&t) as i128),
            Expression::AlignOf(t) => self.type_name(&t.node.0.node).ok().map(|t| self.align_of(&t) as i128),
            Expression::SizeOfVal(x) => match &x.node.0.node {
                // `sizeof(T)` with `T` a typedef name the attribute's own parse did not know.
                Expression::Identifier(id) => self.typedefs.get(&id.node.name).cloned().map(|t| self.size_of(&t) as i128),
                _ => None,
            },
            _ => self.const_eval(e),
        }?;
        (v > 0).then_some(v as u64)
    }

    /// The integer width of a machine mode `mode` names; an unsupported construct for the
    /// modes of other types and for 128-bit integers.
    fn mode_bits(&self, mode: &str) -> Result<u8, String> {
        let word = match self.dm {
            DataModel::LP64 => 64,
            DataModel::ILP32 => 32,
        };
        match mode {
            "QI" | "byte" => Ok(8),
            "HI" => Ok(16),
            "SI" => Ok(32),
            "DI" => Ok(64),
            "word" | "pointer" | "unwind_word" => Ok(word),
            "TI" => Err("`__attribute__((mode(TI)))`: 128-bit integers are not modelled".into()),
            _ => Err(format!("`__attribute__((mode({mode})))`: only integer modes (QI, HI, SI, DI, byte, word, pointer) are modelled")),
        }
    }

    /// Gives a declared integer the width its `mode` attribute names (signedness stays the
    /// base type's); a mode on anything else is an unsupported construct at `at`.
    fn apply_mode(&mut self, a: &LayoutAttrs, decl: &mut Declared, at: usize) {
        let Some(bits) = a.mode else { return };
        match &decl.ty {
            CType::Int(it, _) => {
                let base = match bits {
                    8 => "char",
                    16 => "short",
                    32 => "int",
                    _ => "long long",
                };
                let name = match (it.signed, bits) {
                    (true, 8) => "signed char".to_string(),
                    (true, _) => base.to_string(),
                    (false, _) => format!("unsigned {base}"),
                };
                decl.ty = int(bits, it.signed, &name);
            }
            _ => self.unsupported.push((at, "`__attribute__((mode))` on a type that is not an integer".into())),
        }
    }

    /// Applies the attributes of a declaration of a variable or typedef (those of its
    /// specifiers and of its declarator) to what it declares: `mode` changes an integer's
    /// width, `aligned` sets a typedef's alignment (a variable's only matters to
    /// `__alignof__` of it, which the parser does not accept). An attribute the IR cannot
    /// honour is an unsupported construct at `at`, or, on a typedef, wherever it is used.
    pub(crate) fn declaration_attributes(&mut self, specs: &Specs, d: &Declarator, decl: &mut Declared, at: usize) {
        let a = specs.attrs.clone().merge(self.layout_attrs(&d.extensions));
        let unsupported_before = self.unsupported.len();
        self.apply_mode(&a, decl, at);
        let mut problems: Vec<String> = self.unsupported.drain(unsupported_before..).map(|(_, w)| w).collect();
        problems.extend(a.unsupported.clone());
        let Some(name) = decl.name.clone() else { return };
        if specs.is_typedef {
            match problems.into_iter().next() {
                Some(what) => {
                    self.poisoned_typedefs.insert(name.clone(), what);
                }
                None => {
                    self.poisoned_typedefs.remove(&name);
                }
            }
            let plain = d.derived.iter().all(|x| matches!(x.node, DerivedDeclarator::Array(_)));
            match a.aligned.or(specs.typedef_align.filter(|_| plain)) {
                Some(n) => self.typedef_aligns.insert(name, n),
                None => self.typedef_aligns.remove(&name),
            };
        } else {
            for what in problems {
                self.unsupported.push((at, what));
            }
        }
    }

    /// The alignment of a type name, with the one its typedef name sets (`_Alignof(T)`).
    pub(crate) fn type_name_align(&self, tn: &TypeName, ty: &CType) -> u64 {
        let plain = tn.declarator.as_ref().is_none_or(|d| d.node.derived.is_empty());
        let tname = typedef_name(tn.specifiers.iter().filter_map(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
            _ => None,
        }));
        match tname.and_then(|n| self.typedef_aligns.get(n)) {
            Some(&a) if plain => a,
            _ => self.align_of(ty),
        }
    }

    /// Whether a value of type `t` holds a `rec` record inside it (not behind a pointer).
    fn contains_by_value(&self, t: &CType, rec: RecordId) -> bool {
        match t {
            CType::Array(e, _) => self.contains_by_value(e, rec),
            CType::Record(r) => *r == rec || self.records[r.0 as usize].fields.iter().any(|(_, f)| self.contains_by_value(f, rec)),
            _ => false,
        }
    }

    fn new_record(&mut self, tag: Option<String>, is_union: bool) -> RecordId {
        let id = RecordId(self.records.len() as u32);
        let name = tag.clone().unwrap_or_else(|| format!("<anonymous#{}>", id.0));
        self.records.push(Record { name, is_union, fields: Vec::new() });
        if let Some(t) = tag {
            self.tags.insert(t, id);
        }
        id
    }

    fn enumeration(&mut self, et: &EnumType, keyword: usize) -> Result<CType, TypeError> {
        let trailing = self.pending_trailing.take();
        let mut next = 0i128;
        let (mut lo, mut hi) = (0i128, 0i128);
        let mut names = Vec::new();
        for e in &et.enumerators {
            let v = match &e.node.expression {
                Some(x) => self.const_eval(&x.node).ok_or_else(|| "a non-constant enumerator value".to_string())?,
                None => next,
            };
            // Inside the body a constant has the first type that holds it; its final type is
            // set once the enumeration's own type is known.
            let provisional = [ENUM_INT, IntTy { bits: 32, signed: false }, IntTy { bits: 64, signed: true }, IntTy { bits: 64, signed: false }]
                .into_iter()
                .find(|&t| t.min() <= v && v <= t.max())
                .ok_or_else(|| "an enumerator value wider than 64 bits".to_string())?;
            let name = e.node.identifier.node.name.clone();
            self.enum_consts.insert(name.clone(), (v, provisional));
            names.push(name);
            (lo, hi) = (lo.min(v), hi.max(v));
            next = v + 1;
        }
        let name = et.identifier.as_ref().map(|i| format!("enum {}", i.node.name)).unwrap_or_else(|| "enum".into());
        let tag = et.identifier.as_ref().map(|i| i.node.name.clone());
        if et.enumerators.is_empty() {
            // An enumeration not defined (yet) has no known values: `int` stands for it.
            return Ok(tag.and_then(|t| self.enum_tags.get(&t).cloned()).unwrap_or_else(|| int(32, true, &name)));
        }
        if let Some(t) = &tag {
            self.enum_tags.remove(t);
        }
        let attrs = self.keyword_attrs(keyword).merge(trailing.unwrap_or_default());
        if let Some(what) = &attrs.unsupported {
            self.unsupported.push((keyword, what.clone()));
        }
        if attrs.aligned.is_some() || attrs.mode.is_some() {
            self.unsupported.push((keyword, "`aligned` or `mode` on an enumeration".into()));
        }
        // GCC's choice (no `-fshort-enums`): `unsigned int` when no value is negative, `int`
        // otherwise, widened to 64 bits when a value does not fit 32; a packed enumeration
        // takes the narrowest of 8, 16 or 32 bits first.
        let fits = |bits: u32| if lo < 0 { lo >= -(1i128 << (bits - 1)) && hi < 1i128 << (bits - 1) } else { hi < 1i128 << bits };
        let widths: &[u8] = if attrs.packed { &[8, 16, 32, 64] } else { &[32, 64] };
        let bits = widths.iter().copied().find(|&b| fits(b as u32)).ok_or_else(|| "an enumeration whose values need more than 64 bits".to_string())?;
        let it = IntTy { bits, signed: lo < 0 };
        for n in names {
            if let Some(c) = self.enum_consts.get_mut(&n) {
                if !(ENUM_INT.min() <= c.0 && c.0 <= ENUM_INT.max()) {
                    c.1 = it;
                }
            }
        }
        let ty = int(bits, lo < 0, &name);
        if let Some(t) = tag {
            self.enum_tags.insert(t, ty.clone());
        }
        Ok(ty)
    }

    /// Size in bytes of a type under the data model (0 for incomplete types).
    pub(crate) fn size_of(&self, t: &CType) -> u64 {
        self.layout(t).0
    }

    /// Alignment in bytes of a type under the data model.
    pub(crate) fn align_of(&self, t: &CType) -> u64 {
        self.layout(t).1
    }

    fn layout(&self, t: &CType) -> (u64, u64) {
        let ptr = match self.dm {
            DataModel::LP64 => 8,
            DataModel::ILP32 => 4,
        };
        match t {
            CType::Void | CType::Function => (1, 1),
            CType::Bool => (1, 1),
            CType::Int(i, _) => {
                let s = (i.bits / 8) as u64;
                // i386 aligns 64-bit integers to 4 bytes inside structs.
                (s, if self.dm == DataModel::ILP32 { s.min(4) } else { s })
            }
            // i386 aligns `double` and `long double` to 4 bytes inside structs.
            CType::Float(n) => (*n as u64, if self.dm == DataModel::ILP32 { (*n as u64).min(4) } else { *n as u64 }),
            CType::Pointer(_) => (ptr, ptr),
            CType::Array(e, n) => {
                let (s, a) = self.layout(e);
                (s.saturating_mul(n.unwrap_or(0)), a)
            }
            CType::Mutex => (if ptr == 8 { 40 } else { 24 }, ptr),
            CType::Opaque(n) => match n.as_str() {
                "pthread_cond_t" => (48, 8),
                "pthread_attr_t" => (if ptr == 8 { 56 } else { 36 }, ptr),
                _ => (ptr, ptr),
            },
            CType::Record(r) => {
                let l = self.record_layout(*r);
                (l.size, l.align)
            }
        }
    }

    /// Where GCC puts each member of a record on x86 (the System V ABI, as `gcc` and
    /// `gcc -m32` lay it out): members at their alignment, which `packed` lowers to 1,
    /// `aligned` raises, a typedef's `aligned` replaces and `#pragma pack` caps; bit-fields
    /// at the next free bit, moved to the next unit of their type only where they would
    /// straddle one (not in a packed record or under `#pragma pack`); named bit-fields
    /// align the record as their type does, unnamed ones do not.
    pub(crate) fn record_layout(&self, r: RecordId) -> RecordLayout {
        let rec = &self.records[r.0 as usize];
        let ra = self.record_attrs.get(&r).copied().unwrap_or_default();
        let (mut pos, mut union_bits, mut align) = (0u64, 0u64, 1u64);
        let mut bit_offsets = Vec::with_capacity(rec.fields.len());
        for (i, (name, ft)) in rec.fields.iter().enumerate() {
            let ma = self.member_attrs.get(&(r, i)).copied().unwrap_or_default();
            let (fs, ta) = self.layout(ft);
            let packed = ra.packed || ma.packed;
            let mut a = ma.type_align.unwrap_or(ta).max(1);
            if packed {
                a = 1;
            }
            if let Some(n) = ma.aligned {
                a = a.max(n);
            }
            if let Some(p) = ra.pack {
                a = a.min(p);
            }
            let start = match ma.bits {
                Some(0) => {
                    // A zero-width bit-field ends the unit: what follows starts at the next
                    // boundary of its type's alignment.
                    let unit = ta.max(1) * 8;
                    if !rec.is_union {
                        pos = pos.div_ceil(unit) * unit;
                    }
                    bit_offsets.push(pos);
                    continue;
                }
                Some(w) => {
                    let start = if rec.is_union {
                        union_bits = union_bits.max(w);
                        0
                    } else {
                        // `aligned(n)` on a bit-field starts it at the next multiple of n
                        // bytes (capped by `#pragma pack`), even in a packed record.
                        if let Some(n) = ma.aligned {
                            let n = ra.pack.map_or(n, |p| n.min(p)).max(1) * 8;
                            pos = pos.div_ceil(n) * n;
                        }
                        let unit = fs * 8;
                        if !packed && ra.pack.is_none() && unit > 0 && (pos % unit) + w > unit {
                            pos = pos.div_ceil(unit) * unit;
                        }
                        let s = pos;
                        pos += w;
                        s
                    };
                    if !name.is_empty() {
                        align = align.max(a);
                    }
                    start
                }
                None => {
                    align = align.max(a);
                    if rec.is_union {
                        union_bits = union_bits.max(fs * 8);
                        0
                    } else {
                        pos = pos.div_ceil(a * 8) * a * 8;
                        let s = pos;
                        pos += fs * 8;
                        s
                    }
                }
            };
            bit_offsets.push(start);
        }
        if let Some(n) = ra.aligned {
            align = align.max(n);
        }
        let bits = if rec.is_union { union_bits } else { pos };
        RecordLayout { size: bits.div_ceil(8).div_ceil(align) * align, align, bit_offsets }
    }

    /// The byte offset of member `i` of record `r` (for a bit-field, of the byte holding
    /// its first bit).
    #[cfg(test)]
    pub(crate) fn field_offset(&self, r: RecordId, i: usize) -> u64 {
        self.record_layout(r).bit_offsets.get(i).map_or(0, |b| b / 8)
    }

    /// The width of member `i` of record `r`, if it is a bit-field.
    pub(crate) fn field_bits(&self, r: RecordId, i: usize) -> Option<u64> {
        self.member_attrs.get(&(r, i)).and_then(|m| m.bits)
    }

    /// Evaluates an integer constant expression, if it is one.
    pub(crate) fn const_eval(&self, e: &Expression) -> Option<i128> {
        self.const_typed(e).map(|(v, _)| v)
    }

    /// The value and type of an integer constant expression as C computes them (C11 6.6,
    /// 6.3.1.8): literals have their types, operands take the usual arithmetic conversions,
    /// unsigned results wrap and casts convert. `None` for what is not such a constant, or
    /// overflows a signed type (undefined), or divides by zero.
    fn const_typed(&self, e: &Expression) -> Option<(i128, IntTy)> {
        const INT: IntTy = IntTy { bits: 32, signed: true };
        let fit = |v: i128, t: IntTy| (t.min() <= v && v <= t.max()).then_some((v, t));
        // An arithmetic result in type `t`: unsigned arithmetic wraps, signed overflow is
        // not a constant.
        let arith = |v: Option<i128>, t: IntTy| if t.signed { fit(v?, t) } else { Some((t.wrap(v?), t)) };
        match e {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => match parse_integer(i)? {
                    (v, CType::Int(t, _)) => Some((v, t)),
                    _ => None,
                },
                Constant::Character(s) => Some((parse_char(s)?, INT)),
                Constant::Float(_) => None,
            },
            Expression::Identifier(id) => self.enum_consts.get(&id.node.name).copied(),
            Expression::UnaryOperator(u) => {
                let (v, t) = self.const_typed(&u.node.operand.node)?;
                let t = promote(t);
                match u.node.operator.node {
                    UnaryOperator::Minus => arith(Some(-v), t),
                    UnaryOperator::Plus => Some((v, t)),
                    UnaryOperator::Complement => Some((t.wrap(!v), t)),
                    UnaryOperator::Negate => Some(((v == 0) as i128, INT)),
                    _ => None,
                }
            }
            Expression::Cast(c) => {
                let (v, _) = self.const_typed(&c.node.expression.node)?;
                match self.cast_target(&c.node.type_name.node)? {
                    None => Some(((v != 0) as i128, IntTy { bits: 8, signed: false })),
                    Some(t) => Some((t.wrap(v), t)),
                }
            }
            Expression::BinaryOperator(b) => {
                use BinaryOperator::*;
                let op = b.node.operator.node.clone();
                let (l, lt) = self.const_typed(&b.node.lhs.node)?;
                // `&&` and `||` do not evaluate (or need) an operand the left one decides.
                match (&op, l != 0) {
                    (LogicalAnd, false) => return Some((0, INT)),
                    (LogicalOr, true) => return Some((1, INT)),
                    _ => {}
                }
                let (r, rt) = self.const_typed(&b.node.rhs.node)?;
                if matches!(op, LogicalAnd | LogicalOr) {
                    return Some(((r != 0) as i128, INT));
                }
                if matches!(op, ShiftLeft | ShiftRight) {
                    let t = promote(lt);
                    if r < 0 || r >= t.bits as i128 {
                        return None;
                    }
                    // GCC defines the signed left shifts C11 leaves undefined: they wrap.
                    return Some((if op == ShiftLeft { t.wrap(l << r) } else { l >> r }, t));
                }
                // Both operands in their common type, where the comparison happens too.
                let t = common(lt, rt);
                let (l, r) = (t.wrap(l), t.wrap(r));
                let truth = |b: bool| Some((b as i128, INT));
                match op {
                    Plus => arith(l.checked_add(r), t),
                    Minus => arith(l.checked_sub(r), t),
                    Multiply => arith(l.checked_mul(r), t),
                    Divide => arith(l.checked_div(r), t),
                    Modulo => arith(l.checked_rem(r), t),
                    Less => truth(l < r),
                    Greater => truth(l > r),
                    LessOrEqual => truth(l <= r),
                    GreaterOrEqual => truth(l >= r),
                    Equals => truth(l == r),
                    NotEquals => truth(l != r),
                    BitwiseAnd => Some((t.wrap(l & r), t)),
                    BitwiseOr => Some((t.wrap(l | r), t)),
                    BitwiseXor => Some((t.wrap(l ^ r), t)),
                    _ => None,
                }
            }
            Expression::Conditional(c) => {
                let (k, _) = self.const_typed(&c.node.condition.node)?;
                // The result has the branches' common type whichever is chosen.
                let (a, at) = self.const_typed(&c.node.then_expression.node)?;
                let (b, bt) = self.const_typed(&c.node.else_expression.node)?;
                let t = common(at, bt);
                Some((t.wrap(if k != 0 { a } else { b }), t))
            }
            _ => None,
        }
    }

    /// The integer type a cast in a constant expression converts to: `Some(None)` for
    /// `_Bool`, `None` for what this does not resolve (records, floating point, `typeof`).
    fn cast_target(&self, tn: &TypeName) -> Option<Option<IntTy>> {
        let ptr = Some(Some(crate::ir::types::ptr_int(self.dm)));
        if tn.declarator.as_ref().is_some_and(|d| !d.node.derived.is_empty()) {
            return ptr;
        }
        let of = |t: &CType| match t {
            CType::Int(i, _) => Some(Some(*i)),
            CType::Bool => Some(None),
            CType::Pointer(_) => ptr,
            _ => None,
        };
        let (mut longs, mut short, mut char_, mut unsigned) = (0, false, false, false);
        for s in &tn.specifiers {
            let SpecifierQualifier::TypeSpecifier(t) = &s.node else { continue };
            match &t.node {
                TypeSpecifier::Char => char_ = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Int | TypeSpecifier::Signed => {}
                TypeSpecifier::Bool => return Some(None),
                // The enumeration's own type (`unsigned int` when no value is negative).
                TypeSpecifier::Enum(e) => return of(self.enum_tags.get(&e.node.identifier.as_ref()?.node.name)?),
                TypeSpecifier::TypedefName(id) => return of(self.typedefs.get(&id.node.name)?),
                _ => return None,
            }
        }
        let long_bits = if self.dm == DataModel::ILP32 { 32 } else { 64 };
        let bits = if char_ {
            8
        } else if short {
            16
        } else if longs >= 2 {
            64
        } else if longs == 1 {
            long_bits
        } else {
            32
        };
        Some(Some(IntTy { bits, signed: !unsigned }))
    }
}

/// C's integer promotion of an integer type.
pub(crate) fn promote(t: IntTy) -> IntTy {
    if t.bits < 32 {
        IntTy { bits: 32, signed: true }
    } else {
        t
    }
}

/// C's usual arithmetic conversions on two integer types.
pub(crate) fn common(a: IntTy, b: IntTy) -> IntTy {
    let (a, b) = (promote(a), promote(b));
    if a.signed == b.signed {
        return if a.bits >= b.bits { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.bits >= s.bits {
        u
    } else {
        s
    }
}

/// Array and function parameters decay to pointers.
pub(crate) fn decay(t: CType) -> CType {
    match t {
        CType::Array(e, _) => CType::Pointer(e),
        CType::Function => CType::Pointer(Box::new(CType::Function)),
        t => t,
    }
}

/// Parses an integer literal into its value and C type (C11 6.4.4.1).
pub(crate) fn parse_integer(i: &Integer) -> Option<(i128, CType)> {
    let radix = match i.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let v = u128::from_str_radix(&i.number, radix).ok()?;
    let v = i128::try_from(v).ok()?;
    let decimal = radix == 10;
    let u = i.suffix.unsigned;
    let min_bits = match i.suffix.size {
        IntegerSize::Int => 32,
        IntegerSize::Long | IntegerSize::LongLong => 64,
    };
    // The first type of the list that holds the value.
    let candidates: &[(u8, bool)] = &[(32, true), (32, false), (64, true), (64, false)];
    for &(bits, signed) in candidates {
        if bits < min_bits || (u && signed) || (decimal && !u && !signed) {
            continue;
        }
        let t = IntTy { bits, signed };
        if v <= t.max() {
            let name = match (bits, signed) {
                (32, true) => "int",
                (32, false) => "unsigned int",
                (64, true) => "long",
                _ => "unsigned long",
            };
            return Some((v, CType::Int(t, name.into())));
        }
    }
    Some((v, CType::Int(IntTy { bits: 64, signed: false }, "unsigned long".into())))
}

/// The value of a character constant such as `'a'` or `'\n'`.
pub(crate) fn parse_char(s: &str) -> Option<i128> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    // Each escape is one `char`; any other character is its UTF-8 bytes, as GCC reads them.
    let mut units: Vec<i128> = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            units.extend(c.encode_utf8(&mut buf).bytes().map(i128::from));
            continue;
        }
        let e = chars.next()?;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            '\\' => 92,
            '\'' => 39,
            '"' => 34,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            '?' => 63,
            'x' => {
                let mut digits = String::new();
                while let Some(d) = chars.next_if(|d| d.is_ascii_hexdigit()) {
                    digits.push(d);
                }
                i128::from_str_radix(&digits, 16).ok().filter(|v| *v <= 0xff)?
            }
            '0'..='7' => {
                let mut digits = String::from(e);
                while digits.len() < 3 {
                    let Some(d) = chars.next_if(|d| ('0'..='7').contains(d)) else { break };
                    digits.push(d);
                }
                i128::from_str_radix(&digits, 8).ok().filter(|v| *v <= 0xff)?
            }
            _ => return None,
        };
        units.push(v);
    }
    match units.len() {
        // One `char`, signed on the x86 targets, which the constant's `int` value then holds:
        // '\xff' is -1.
        1 => Some(IntTy { bits: 8, signed: true }.wrap(units[0])),
        // A multi-character constant (GCC's value: each `char`'s bits shifted in, the result an
        // `int`): 'ab' is 0x6162, not 'a'. Longer ones GCC truncates with a warning: refused.
        2..=4 => Some(IntTy { bits: 32, signed: true }.wrap(units.iter().fold(0, |acc, u| (acc << 8) | u))),
        _ => None,
    }
}

/// The derived declarators in the order they wrap the base type: `a[3][4]` is an array of 3
/// arrays of 4, so a run of array suffixes applies from the last to the first (the parser
/// lists them as written), while pointers and function suffixes keep their order.
fn array_suffixes_innermost_first(derived: &[Node<DerivedDeclarator>]) -> Vec<&Node<DerivedDeclarator>> {
    let mut out = Vec::with_capacity(derived.len());
    let mut run: Vec<&Node<DerivedDeclarator>> = Vec::new();
    for der in derived {
        if matches!(der.node, DerivedDeclarator::Array(_)) {
            run.push(der);
        } else {
            out.extend(run.drain(..).rev());
            out.push(der);
        }
    }
    out.extend(run.into_iter().rev());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Resolves the top-level declarations of `src` as the lowerer does.
    fn env(src: &str, dm: DataModel) -> TypeEnv {
        let (text, found) = crate::frontend::attributes::scan(src);
        let parsed = lang_c::driver::parse_preprocessed(&lang_c::driver::Config::with_gcc(), text.into_owned()).expect("the test program parses");
        let mut env = TypeEnv::new(dm);
        env.text_attributes = found;
        for ext in &parsed.unit.0 {
            let ExternalDeclaration::Declaration(d) = &ext.node else { panic!("only declarations: {ext:?}") };
            let specs = env.specs(&d.node.specifiers).unwrap();
            for id in &d.node.declarators {
                let mut decl = env.declarator(specs.ty.clone(), &id.node.declarator.node).unwrap();
                env.declaration_attributes(&specs, &id.node.declarator.node, &mut decl, id.span.start);
                if specs.is_typedef {
                    env.add_typedef(decl.name.as_deref().unwrap(), decl.ty);
                }
            }
        }
        env
    }

    /// Size and alignment of a typedef name, with the alignment it sets.
    fn size_align(env: &TypeEnv, name: &str) -> (u64, u64) {
        let t = env.typedef(name).unwrap_or_else(|| panic!("no typedef {name}"));
        (env.size_of(t), env.typedef_aligns.get(name).copied().unwrap_or_else(|| env.align_of(t)))
    }

    /// Byte offsets of the members of the record a typedef name stands for.
    fn offsets(env: &TypeEnv, name: &str) -> Vec<u64> {
        let Some(CType::Record(r)) = env.typedef(name) else { panic!("{name} is not a record") };
        (0..env.records[r.0 as usize].fields.len()).map(|i| env.field_offset(*r, i)).collect()
    }

    // Every expected value below is what `gcc` (x86-64) and `gcc -m32` (i386) gave for the
    // same declarations (`sizeof`, `_Alignof`, `offsetof`), GCC 12.
    const PACKED: &str = "
        struct __attribute__((packed)) A { char c; int x; }; typedef struct A A;
        struct B { char c; int x; } __attribute__((packed)); typedef struct B B;
        struct C { char c; int x __attribute__((packed)); long long y; }; typedef struct C C;
        struct D { char c; int x __attribute__((aligned(8))); } __attribute__((packed)); typedef struct D D;
        struct F { char c; int x; } __attribute__((packed, aligned(2))); typedef struct F F;
        struct K { char c; struct A a[3]; }; typedef struct K K;
        struct S8 { char c; __attribute__((packed)) int x; }; typedef struct S8 S8;
        struct S10 { char c; int x, y __attribute__((packed)); }; typedef struct S10 S10;
        union __attribute__((packed)) U { char c[5]; int x; }; typedef union U U;
        typedef struct S1 { char c; int x; } T4 __attribute__((packed));
        typedef __attribute__((packed)) struct { char c; int x; } T6;
        typedef struct { char c; int x; } __attribute__((packed)) T5;
    ";

    #[test]
    fn packed_records_follow_gcc() {
        for dm in [DataModel::LP64, DataModel::ILP32] {
            let e = env(PACKED, dm);
            assert_eq!(size_align(&e, "A"), (5, 1));
            assert_eq!(offsets(&e, "A"), vec![0, 1]);
            assert_eq!(size_align(&e, "B"), (5, 1));
            assert_eq!(offsets(&e, "C"), vec![0, 1, 8]);
            assert_eq!(size_align(&e, "C"), if dm == DataModel::LP64 { (16, 8) } else { (16, 4) });
            assert_eq!((size_align(&e, "D"), offsets(&e, "D")), ((16, 8), vec![0, 8]));
            assert_eq!((size_align(&e, "F"), offsets(&e, "F")), ((6, 2), vec![0, 1]));
            // An array of packed structs has a stride of 5.
            assert_eq!((size_align(&e, "K"), offsets(&e, "K")), ((16, 1), vec![0, 1]));
            assert_eq!((size_align(&e, "S8"), offsets(&e, "S8")), ((5, 1), vec![0, 1]));
            assert_eq!((size_align(&e, "S10"), offsets(&e, "S10")), ((12, 4), vec![0, 4, 8]));
            assert_eq!(size_align(&e, "U"), (5, 1));
            // `packed` on a typedef, or before `struct`, is ignored by GCC.
            assert_eq!(size_align(&e, "T4"), (8, 4));
            assert_eq!(size_align(&e, "T6"), (8, 4));
            assert_eq!(size_align(&e, "T5"), (5, 1));
        }
    }

    #[test]
    fn aligned_records_members_and_typedefs_follow_gcc() {
        let src = "
            struct E { char c; } __attribute__((aligned)); typedef struct E E;
            typedef int aint __attribute__((aligned(16)));
            typedef int lint __attribute__((aligned(1)));
            struct G { char c; aint x; }; typedef struct G G;
            struct H { char c; lint x; }; typedef struct H H;
            struct I { char c; aint x; } __attribute__((packed)); typedef struct I I;
            typedef struct { char c; } T3 __attribute__((aligned(8)));
            struct N { T3 a; char b; }; typedef struct N N;
            struct W { char c; long long x; } __attribute__((aligned(4))); typedef struct W W;
            struct Y { char a; char c __attribute__((aligned)); }; typedef struct Y Y;
            struct S11 { char c; __attribute__((aligned(8))) int x, y; }; typedef struct S11 S11;
            typedef char c8 __attribute__((aligned(8))); typedef c8 c8b;
            struct S12 { char a; c8b b; }; typedef struct S12 S12;
        ";
        for dm in [DataModel::LP64, DataModel::ILP32] {
            let e = env(src, dm);
            assert_eq!(size_align(&e, "E"), (16, 16));
            assert_eq!(size_align(&e, "aint"), (4, 16));
            assert_eq!(size_align(&e, "lint"), (4, 1));
            assert_eq!((size_align(&e, "G"), offsets(&e, "G")), ((32, 16), vec![0, 16]));
            assert_eq!((size_align(&e, "H"), offsets(&e, "H")), ((5, 1), vec![0, 1]));
            assert_eq!((size_align(&e, "I"), offsets(&e, "I")), ((5, 1), vec![0, 1]));
            assert_eq!(size_align(&e, "T3"), (1, 8));
            assert_eq!((size_align(&e, "N"), offsets(&e, "N")), ((8, 8), vec![0, 1]));
            assert_eq!(size_align(&e, "W"), if dm == DataModel::LP64 { (16, 8) } else { (12, 4) });
            assert_eq!((size_align(&e, "Y"), offsets(&e, "Y")), ((32, 16), vec![0, 16]));
            assert_eq!((size_align(&e, "S11"), offsets(&e, "S11")), ((24, 8), vec![0, 8, 16]));
            assert_eq!((size_align(&e, "S12"), offsets(&e, "S12")), ((16, 8), vec![0, 8]));
        }
    }

    #[test]
    fn pragma_pack_caps_member_alignment() {
        let src = "
            #pragma pack(push, 2)
            struct PA { char c; int x; long long y; }; typedef struct PA PA;
            struct PB { char c; int x __attribute__((aligned(8))); }; typedef struct PB PB;
            struct PC { char c; short s; } __attribute__((aligned(8))); typedef struct PC PC;
            #pragma pack(1)
            struct PD { char c; int x; }; typedef struct PD PD;
            #pragma pack(pop)
            struct PE { char c; int x; }; typedef struct PE PE;
            #pragma pack(4)
            struct PF { char c; long long x; }; typedef struct PF PF;
            #pragma pack()
            struct PG { char c; long long x; }; typedef struct PG PG;
        "
        .lines()
        .map(str::trim_start)
        .collect::<Vec<_>>()
        .join("\n");
        for dm in [DataModel::LP64, DataModel::ILP32] {
            let e = env(&src, dm);
            assert_eq!(offsets(&e, "PA"), vec![0, 2, 6]);
            assert_eq!(size_align(&e, "PA").0, 14);
            assert_eq!((size_align(&e, "PB"), offsets(&e, "PB")), ((6, 2), vec![0, 2]));
            assert_eq!(size_align(&e, "PC"), (8, 8));
            assert_eq!(size_align(&e, "PD").0, 5);
            assert_eq!(size_align(&e, "PE").0, 8);
            assert_eq!(size_align(&e, "PF").0, 12);
            assert_eq!(size_align(&e, "PG").0, if dm == DataModel::LP64 { 16 } else { 12 });
        }
    }

    #[test]
    fn bit_fields_follow_gcc() {
        let src = "
            struct S13 { char c; int x:4; int y:28; char z; } __attribute__((packed)); typedef struct S13 S13;
            struct S14 { char c; int x:4; int y:28; char z; }; typedef struct S14 S14;
            struct S15 { char c; short x:4; int y:7; }; typedef struct S15 S15;
            struct BU { char c; int : 4; char d; }; typedef struct BU BU;
            struct BZ { char c : 2; int : 0; char d; }; typedef struct BZ BZ;
            union UB { int x : 4; char c; }; typedef union UB UB;
            struct BL { char c; long long x : 40; char d; }; typedef struct BL BL;
        ";
        for dm in [DataModel::LP64, DataModel::ILP32] {
            let e = env(src, dm);
            assert_eq!((size_align(&e, "S13").0, offsets(&e, "S13")[3]), (6, 5));
            assert_eq!((size_align(&e, "S14").0, offsets(&e, "S14")[3]), (12, 8));
            assert_eq!(size_align(&e, "S15"), (4, 4));
            assert_eq!(size_align(&e, "BU"), (3, 1));
            assert_eq!(size_align(&e, "BZ").0, 5);
            assert_eq!(size_align(&e, "UB"), (4, 4));
            assert_eq!((size_align(&e, "BL"), offsets(&e, "BL")[2]), (if dm == DataModel::LP64 { (8, 8) } else { (8, 4) }, 6));
        }
    }

    #[test]
    fn mode_sets_integer_widths_and_packed_enums_narrow() {
        let src = "
            typedef int di __attribute__((mode(DI)));
            typedef unsigned int uqi __attribute__((__mode__(__QI__)));
            typedef int wd __attribute__((mode(word)));
            typedef int __attribute__((mode(pointer))) pt;
            typedef int by __attribute__((mode(byte)));
            enum __attribute__((packed)) E1 { A1, B1 = 200 }; typedef enum E1 E1;
            enum E2 { A2 = -1, B2 = 100 } __attribute__((packed)); typedef enum E2 E2;
            enum E3 { A3 = 70000 } __attribute__((packed)); typedef enum E3 E3;
        ";
        for dm in [DataModel::LP64, DataModel::ILP32] {
            let e = env(src, dm);
            let int_of = |n: &str| match e.typedef(n) {
                Some(CType::Int(it, _)) => *it,
                t => panic!("{n}: {t:?}"),
            };
            let word = if dm == DataModel::LP64 { 64 } else { 32 };
            assert_eq!(int_of("di"), IntTy { bits: 64, signed: true });
            assert_eq!(int_of("uqi"), IntTy { bits: 8, signed: false });
            assert_eq!(int_of("wd"), IntTy { bits: word, signed: true });
            assert_eq!(int_of("pt"), IntTy { bits: word, signed: true });
            assert_eq!(int_of("by"), IntTy { bits: 8, signed: true });
            assert_eq!(int_of("E1"), IntTy { bits: 8, signed: false });
            assert_eq!(int_of("E2"), IntTy { bits: 8, signed: true });
            assert_eq!(int_of("E3").bits, 32);
            assert!(e.unsupported.is_empty(), "{:?}", e.unsupported);
        }
    }

    #[test]
    fn an_unrepresentable_typedef_is_unsupported_where_used() {
        let src = "typedef int v4 __attribute__((vector_size(16)));\ntypedef int ti __attribute__((mode(TI)));\nstruct S { char c; } __attribute__((scalar_storage_order(\"big-endian\")));\n";
        let e = env(src, DataModel::LP64);
        assert_eq!(e.unsupported.len(), 1, "{:?}", e.unsupported);
        assert!(e.unsupported[0].1.contains("scalar_storage_order"));
        let mut e = env(&format!("{src}v4 a;\nti b;\n"), DataModel::LP64);
        let found: Vec<String> = e.unsupported.drain(..).map(|u| u.1).collect();
        assert!(found.iter().any(|u| u.contains("vector_size")) && found.iter().any(|u| u.contains("mode(TI)")), "{found:?}");
    }
}
