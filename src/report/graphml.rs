//! The SV-COMP GraphML witnesses (format 1.0): for a violation one edge per executed step,
//! with its source line, thread, created thread and the values chosen for program inputs; for
//! a proof the trivial correctness witness (an entry node: GraphML carries no invariants here,
//! the YAML format does).

use crate::witness::{Correctness, Violation};
use std::fmt::Write;

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const SPECIFICATION: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

fn header(o: &mut String, kind: &str, producer: &str, file: &str, source: &[u8], data_model: &str, created: &str) {
    o.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    o.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    let keys = [
        ("witness-type", "graph", "string"),
        ("sourcecodelang", "graph", "string"),
        ("producer", "graph", "string"),
        ("specification", "graph", "string"),
        ("programfile", "graph", "string"),
        ("programhash", "graph", "string"),
        ("architecture", "graph", "string"),
        ("creationtime", "graph", "string"),
        ("entry", "node", "boolean"),
        ("violation", "node", "boolean"),
        ("startline", "edge", "int"),
        ("endline", "edge", "int"),
        ("threadId", "edge", "string"),
        ("createThread", "edge", "string"),
        ("assumption", "edge", "string"),
        ("assumption.scope", "edge", "string"),
        ("enterFunction", "edge", "string"),
    ];
    for (k, f, t) in keys {
        let _ = writeln!(o, "  <key id=\"{k}\" attr.name=\"{k}\" attr.type=\"{t}\" for=\"{f}\"/>");
    }
    o.push_str("  <graph edgedefault=\"directed\">\n");
    let arch = if data_model == "ILP32" { "32bit" } else { "64bit" };
    for (k, v) in [
        ("witness-type", kind.to_string()),
        ("sourcecodelang", "C".into()),
        ("producer", producer.to_string()),
        ("specification", SPECIFICATION.into()),
        ("programfile", file.to_string()),
        ("programhash", sha256_hex(source)),
        ("architecture", arch.into()),
        ("creationtime", created.to_string()),
    ] {
        let _ = writeln!(o, "    <data key=\"{k}\">{}</data>", xml(&v));
    }
    o.push_str("    <node id=\"N0\">\n      <data key=\"entry\">true</data>\n    </node>\n");
}

/// The violation witness of `v`, for the program `file` whose text is `source`.
pub fn violation(v: &Violation, file: &str, source: &[u8], created: &str) -> String {
    let mut o = String::new();
    header(&mut o, "violation_witness", &format!("duet-rs {} ({})", env!("CARGO_PKG_VERSION"), v.engine), file, source, &v.data_model, created);
    let mut node = 0usize;
    for step in &v.steps {
        node += 1;
        let last = node == v.steps.len();
        if last {
            let _ = writeln!(o, "    <node id=\"N{node}\">\n      <data key=\"violation\">true</data>\n    </node>");
        } else {
            let _ = writeln!(o, "    <node id=\"N{node}\"/>");
        }
        let _ = writeln!(o, "    <edge source=\"N{}\" target=\"N{node}\">", node - 1);
        let _ = writeln!(o, "      <data key=\"startline\">{}</data>", step.line);
        let _ = writeln!(o, "      <data key=\"endline\">{}</data>", step.line);
        let _ = writeln!(o, "      <data key=\"threadId\">{}</data>", step.thread);
        if let Some((c, function)) = &step.created {
            let _ = writeln!(o, "      <data key=\"createThread\">{c}</data>");
            let _ = writeln!(o, "      <data key=\"enterFunction\">{}</data>", xml(function));
        }
        if let Some(i) = &step.input {
            let _ = writeln!(o, "      <data key=\"assumption\">{} == {};</data>", xml(&i.variable), i.value);
            let _ = writeln!(o, "      <data key=\"assumption.scope\">{}</data>", xml(&i.function));
        }
        o.push_str("    </edge>\n");
    }
    o.push_str("  </graph>\n</graphml>\n");
    o
}

/// The correctness witness of a proof: GraphML format 1.0 needs only the entry node; the
/// invariants are written in the YAML format.
pub fn correctness(c: &Correctness, file: &str, source: &[u8], created: &str) -> String {
    let mut o = String::new();
    header(&mut o, "correctness_witness", &format!("duet-rs {} ({})", env!("CARGO_PKG_VERSION"), c.configuration()), file, source, &c.data_model, created);
    o.push_str("  </graph>\n</graphml>\n");
    o
}

/// SHA-256 of a byte string, in lower-case hex (FIPS 180-4), for the witness's program hash.
pub fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ];
    let mut h: [u32; 8] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [t1.wrapping_add(t2), v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
        }
        for i in 0..8 {
            h[i] = h[i].wrapping_add(v[i]);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn sha256_known_answers() {
        assert_eq!(super::sha256_hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(super::sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
