//! A violation's interleaving as swimlanes: a column per thread, a row per step, each step in
//! its thread's column, linked to its source line, with the values it read and wrote.

use super::escape;
use crate::verdict::TraceStep;
use std::fmt::Write;

/// The swimlanes of one interleaving as an HTML table: a header cell `th.lane` per thread (in
/// thread order), a row `tr.step` per step. `anchor` gives the id of the element of a source
/// line (file name, line) in the page, where there is one, so that a step links to its line.
pub(crate) fn swimlanes(steps: &[TraceStep], anchor: &dyn Fn(&str, u32) -> Option<String>) -> String {
    let mut threads: Vec<u32> = steps.iter().map(|s| s.thread).collect();
    threads.sort_unstable();
    threads.dedup();
    let mut out = String::from("<div class=\"lanes-wrap\"><table class=\"swimlanes\">\n<thead><tr><th class=\"step-no\">#</th>");
    for t in &threads {
        let first = steps.iter().find(|s| s.thread == *t).map(|s| s.function.as_str()).unwrap_or("");
        let _ = write!(out, "<th class=\"lane\" data-thread=\"{t}\">thread {t}<br><span class=\"fn\">{}</span></th>", escape(first));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, s) in steps.iter().enumerate() {
        let fails = if s.fails { " fails" } else { "" };
        let _ = write!(out, "<tr class=\"step{fails}\" data-thread=\"{}\"><td class=\"step-no\">{}</td>", s.thread, i + 1);
        for t in &threads {
            if *t != s.thread {
                out.push_str("<td class=\"idle\"></td>");
                continue;
            }
            out.push_str("<td class=\"act\">");
            let place = if s.line == 0 { String::from("(no line)") } else { format!("{}:{}", s.line, s.column) };
            match anchor(&s.file, s.line).filter(|_| s.line > 0) {
                Some(id) => {
                    let _ = write!(out, "<a class=\"at\" href=\"#{}\">{place}</a>", escape(&id));
                }
                None => {
                    let _ = write!(out, "<span class=\"at\">{place}</span>");
                }
            }
            let action = match s.loop_steps {
                Some(n) => format!("a loop run to its exit ({n} steps)"),
                None => s.action.clone(),
            };
            let _ = write!(out, "<br><code>{}</code>", escape(&action));
            if !s.effects.is_empty() || !s.inputs.is_empty() {
                out.push_str("<ul class=\"effects\">");
                for e in &s.inputs {
                    let _ = write!(out, "<li class=\"input\">input {}</li>", escape(e));
                }
                for e in &s.effects {
                    let _ = write!(out, "<li>{}</li>", escape(e));
                }
                out.push_str("</ul>");
            }
            for c in &s.created {
                let _ = write!(out, "<div class=\"creates\">creates thread {c}</div>");
            }
            if s.fails {
                out.push_str("<div class=\"failure\">assertion fails</div>");
            }
            out.push_str("</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(thread: u32, line: u32, action: &str, effects: &[&str]) -> TraceStep {
        TraceStep {
            thread,
            function: if thread == 0 { "main".into() } else { "worker".into() },
            file: "a.c".into(),
            line,
            column: 5,
            action: action.into(),
            loop_steps: None,
            created: Vec::new(),
            inputs: Vec::new(),
            effects: effects.iter().map(|e| e.to_string()).collect(),
            fails: false,
        }
    }

    #[test]
    fn one_lane_per_thread_and_each_step_in_its_own_lane() {
        let mut steps = vec![
            step(0, 22, "fork worker", &[]),
            step(0, 23, "fork worker", &[]),
            step(1, 15, "count = count + 1", &["read count = 0", "count = 1"]),
            step(2, 14, "assert(count == 0)", &["read count = 1"]),
        ];
        steps[0].created = vec![1];
        steps[1].created = vec![2];
        steps[1].inputs = vec!["n = 3".into()];
        steps[3].fails = true;
        let html = swimlanes(&steps, &|f, l| (f == "a.c").then(|| format!("f0-L{l}")));
        assert_eq!(html.matches("<th class=\"lane\"").count(), 3, "{html}");
        assert_eq!(html.matches("<tr class=\"step").count(), 4);
        // Every row has one cell per lane; only the step's own lane holds its action.
        assert_eq!(html.matches("<td class=\"idle\"></td>").count(), 4 * 2);
        assert_eq!(html.matches("<td class=\"act\">").count(), 4);
        let row3 = html.split("<tr class=\"step").nth(3).unwrap();
        let cells: Vec<&str> = row3.split("<td").skip(2).collect();
        assert!(cells[0].contains("class=\"idle\"") && cells[1].contains("count = count + 1") && cells[2].contains("class=\"idle\""), "{row3}");
        assert!(row3.contains("<li>read count = 0</li><li>count = 1</li>"));
        assert!(html.contains("href=\"#f0-L15\">15:5</a>"));
        assert!(html.contains("creates thread 2") && html.contains("<li class=\"input\">input n = 3</li>"));
        assert_eq!(html.matches("<tr class=\"step fails\"").count(), 1);
    }

    #[test]
    fn program_text_in_a_step_is_escaped_and_a_line_without_anchor_is_no_link() {
        let steps = vec![step(0, 3, "s = \"</script><b>\"", &["x = '<'"])];
        let html = swimlanes(&steps, &|_, _| None);
        assert!(!html.contains("</script>") && !html.contains("<b>"), "{html}");
        assert!(html.contains("s = &quot;&lt;/script&gt;&lt;b&gt;&quot;"));
        assert!(!html.contains("href="));
    }
}
