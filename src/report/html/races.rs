//! The data-race verdicts of a file (`--races`): one row per shared memory location, and per
//! pair of accesses that is not race-free, the two accesses side by side (place linked to its
//! source line, read or write, locks held, thread template), with the replayed interleaving
//! of a `race`.

use super::{escape, place_link};
use crate::verdict::races::{RaceAccess, RaceStatus, RaceVerdict};
use std::fmt::Write;

/// The races part of a file's section. `anchor` gives the id of a source line's element
/// (file name, line) where the page shows that line.
pub(crate) fn section(verdicts: &[RaceVerdict], anchor: &dyn Fn(&str, u32) -> Option<String>) -> String {
    let count = |s: RaceStatus| verdicts.iter().filter(|v| v.status == s).count();
    let mut out = format!(
        "<details class=\"races\" open><summary>Data races: {} race, {} unknown, {} race-free location(s)</summary>\n<table class=\"races\"><thead><tr><th>memory</th><th>verdict</th><th>reason</th></tr></thead><tbody>\n",
        count(RaceStatus::Race),
        count(RaceStatus::Unknown),
        count(RaceStatus::RaceFree)
    );
    for v in verdicts {
        let _ = writeln!(
            out,
            "<tr class=\"race-memory race-{}\"><td><code>{}</code></td><td><span class=\"badge race-{0}\">{0}</span></td><td>{}</td></tr>",
            v.status.word(),
            escape(&v.memory),
            escape(&v.reason)
        );
        for p in &v.pairs {
            let _ = write!(out, "<tr class=\"race-pair-row\"><td colspan=\"3\"><div class=\"race-pair race-{}\">", p.status.word());
            for a in &p.accesses {
                out.push_str(&access(a, anchor));
            }
            let _ = write!(out, "<p class=\"race-why\"><span class=\"badge race-{}\">{0}</span> {}</p>", p.status.word(), escape(&p.reason));
            if !p.interleaving.is_empty() {
                out.push_str("<ol class=\"race-steps\">");
                for s in &p.interleaving {
                    let _ = write!(out, "<li>{}</li>", escape(s));
                }
                out.push_str("</ol>");
            }
            out.push_str("</div></td></tr>\n");
        }
    }
    out.push_str("</tbody></table></details>\n");
    out
}

/// One side of a pair: its place (a link when the page shows that line), kind, locks, thread.
fn access(a: &RaceAccess, anchor: &dyn Fn(&str, u32) -> Option<String>) -> String {
    let place = place_link(anchor, parse_place(&a.at), &a.at);
    let locks = if a.locks.is_empty() { "no lock".to_string() } else { a.locks.iter().map(|l| escape(l)).collect::<Vec<_>>().join(", ") };
    format!(
        "<div class=\"race-access {}\"><div class=\"place\">{place}</div><div><strong>{}</strong> by <code>{}</code></div><div class=\"locks\">holding {locks}</div></div>",
        if a.write { "write" } else { "read" },
        if a.write { "write" } else { "read" },
        escape(&a.thread)
    )
}

/// The file name and line of a `file:line:col` place.
fn parse_place(at: &str) -> Option<(&str, u32)> {
    let mut parts = at.rsplitn(3, ':');
    let _col = parts.next()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    Some((file.rsplit('/').next().unwrap_or(file), line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::races::RacePair;

    fn side(at: &str, write: bool, locks: &[&str]) -> RaceAccess {
        RaceAccess { at: at.into(), write, locks: locks.iter().map(|s| s.to_string()).collect(), thread: "worker".into() }
    }

    #[test]
    fn a_pair_shows_both_accesses_side_by_side_linked_to_their_lines() {
        let v = RaceVerdict {
            memory: "count".into(),
            status: RaceStatus::Race,
            reason: "a replayed <interleaving>".into(),
            pairs: vec![RacePair {
                status: RaceStatus::Race,
                reason: "adjacent".into(),
                accesses: [side("dir/a.c:7:5", true, &["m"]), side("dir/a.c:12:9", false, &[])],
                interleaving: vec!["T1 a.c:7:5 count := 1".into(), "T2 a.c:12:9 read count".into()],
            }],
        };
        let html = section(&[v], &|f, l| (f == "a.c" && l == 7).then(|| format!("f0-L{l}")));
        assert_eq!(html.matches("<div class=\"race-pair race-race\">").count(), 1);
        assert_eq!(html.matches("<div class=\"race-access ").count(), 2);
        assert!(html.contains("<a href=\"#f0-L7\">dir/a.c:7:5</a>"), "{html}");
        // Line 12 is not on the page: its place stays text.
        assert!(html.contains("<div class=\"place\">dir/a.c:12:9</div>"), "{html}");
        assert!(html.contains("holding m") && html.contains("holding no lock"));
        assert!(html.contains("&lt;interleaving&gt;") && !html.contains("<interleaving>"));
        assert_eq!(html.matches("<li>").count(), 2);
    }
}
