//! The shell's HTML for several states, against files kept beside this test
//! (`tests/golden/*.html`): the header, the notice, the form, the answer, the ranking's
//! cards and the footer, as the page's module writes them. A change to what the page
//! writes shows here as a diff to review; when it is meant, write the files again with
//! `GOLDEN=write cargo test -p shell --test golden` and commit them with the change.
//!
//! English only: the page's Chinese strings are fetched in the browser (`zh.json`), and
//! the browser tests check the page in Chinese.

use catalog::rank::rank;
use catalog::share::{self, Lang};
use catalog::Catalog;
use shell::page::{footer, header, notice, ranking, workload_form, Draw, Extent, Unfolded};
use web::html::Html;

/// The states: a name and a link's query string.
const STATES: &[(&str, &str)] = &[
    ("default", ""),
    ("qlora-budget", "task=qlora&seq=2048&budget=1500"),
    (
        "serve-70b-rent",
        "task=infer&model=llama-3.1-70b&prec=int4&gpus=4&mode=rent",
    ),
    ("train-cnn", "task=train&model=resnet-50&batch=256"),
    ("diffusion-mine", "task=infer&model=sdxl&mine=rtx-3060-12gb"),
    ("embedded", "embed=1&task=lora&model=llama-3.1-8b"),
    ("hostile", "gpus=0&budget=-5&nonsense=%3Cscript%3E&task=fly"),
    ("moe-offload", "model=gpt-oss-120b&host=64&budget=1500"),
    (
        "torchtune-full",
        "task=finetune&model=llama-3.1-8b&fw=torchtune&gpus=1&budget=3000",
    ),
    ("have-3090", "model=llama-3.3-70b&have=rtx-3090"),
    (
        "have-3090-mine",
        "model=llama-3.3-70b&have=rtx-3090&mine=rtx-3090",
    ),
    (
        "have-3090-measured",
        "model=llama-3.3-70b&have=rtx-3090&measured=rtx-3090:560",
    ),
    ("local-32b", "task=infer&model=qwen2.5-32b&budget=2000"),
    (
        "flux-2500",
        "task=infer&model=flux.1-dev&prec=bf16&budget=2500",
    ),
    ("lora-rent", "task=lora&model=llama-3.1-8b&mode=rent"),
    ("team-70b", "task=infer&model=llama-3.3-70b&batch=32"),
    ("scout-3000", "task=infer&model=llama-4-scout&budget=3000"),
    ("student-400", "task=qlora&model=llama-3.1-8b&budget=400"),
];

/// The page written for the state of that name in `STATES`.
fn state<'p>(pages: &'p [String], name: &str) -> &'p str {
    let i = STATES
        .iter()
        .position(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name} is a state"));
    &pages[i]
}

/// The page for a query, one element per line so a difference reads as a line.
fn page(query: &str) -> String {
    let catalog = Catalog::embedded();
    let (state, ignored) = share::parse(query, catalog);
    let evidence = catalog::evidence::Measurement::parse_all(catalog::data::MEASUREMENTS_JSON)
        .expect("measurements.json parses");
    let d = Draw {
        lang: Lang::En,
        state: &state,
        path: "index.html",
        evidence: Some(&evidence),
    };
    let r = rank(catalog, &state.workload, &state.filters);
    let mut h = Html::new();
    shell::page::answer(&mut h, &d, &r);
    let mut cards = Html::new();
    // `rank_ms` is a timing, the same in every file. The first two GPUs' "More" is open,
    // the others' closed, so the files hold both.
    let open: Vec<String> = r.items.iter().take(2).map(|i| i.gpu.id.clone()).collect();
    ranking(
        &mut cards,
        &d,
        &r,
        state.mine.as_deref(),
        &open,
        0.0,
        Extent::All,
    );
    let parts = [
        header(&d, !state.embed, false),
        notice(&d, &ignored),
        workload_form(&d, Unfolded::default()),
        h.finish(),
        cards.finish(),
        footer(Lang::En, catalog.date().unwrap_or_default()),
    ];
    parts.join("\n").replace("><", ">\n<") + "\n"
}

#[test]
fn the_shell_writes_the_html_on_file_for_each_state() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let write = std::env::var("GOLDEN").is_ok_and(|v| v == "write");
    let mut stale = Vec::new();
    for (name, query) in STATES {
        let path = dir.join(format!("{name}.html"));
        let now = page(query);
        if write {
            std::fs::write(&path, &now).expect("write golden file");
            continue;
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        if kept != now {
            let line = kept
                .lines()
                .zip(now.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(kept.lines().count().min(now.lines().count()));
            stale.push(format!(
                "{name} ({query:?}) differs from line {}:\n  on file: {}\n  now:     {}",
                line + 1,
                kept.lines().nth(line).unwrap_or("(end)"),
                now.lines().nth(line).unwrap_or("(end)")
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "{}\n(if the change is meant: GOLDEN=write cargo test -p shell --test golden)",
        stale.join("\n")
    );
}

#[test]
fn each_state_writes_what_makes_it_that_state() {
    // The golden files would pass if every state wrote the same page; they do not.
    let pages: Vec<String> = STATES.iter().map(|(_, q)| page(q)).collect();
    for (i, a) in pages.iter().enumerate() {
        for b in &pages[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert!(pages[0].contains("data-testid=\"top-card\"") || pages[0].contains("answer"));
    assert!(
        pages[6].contains("data-testid=\"notice\""),
        "the hostile link's notice"
    );
    assert!(
        !pages[6].contains("<script"),
        "nothing from the link is markup"
    );
    assert!(
        pages[4].contains("data-testid=\"mine-fit\""),
        "your GPU's line"
    );
    assert!(
        !pages[2].contains("data-testid=\"notice\""),
        "a link read in full has no notice"
    );
    assert!(
        !pages[5].contains("export-json"),
        "an embed has no downloads"
    );
    // A value pick or a flagship that won a tie says how far below the most value or the
    // fastest it is: never more than the tie the estimate cannot resolve
    // (`rank::FLAGSHIP_TIE`, 5%).
    for page in &pages {
        for (_, rest) in page
            .match_indices("within ")
            .map(|(i, _)| page.split_at(i + 7))
        {
            if let Some((n, tail)) = rest.split_once("% of the most speed per dollar") {
                if let Ok(n) = n.parse::<u32>() {
                    assert!(n <= 5 && !tail.is_empty(), "a value tie of {n}%");
                }
            }
            // So does a flagship that won a tie with a faster card.
            if let Some((n, _)) = rest.split_once("% of the fastest of the") {
                if let Ok(n) = n.parse::<u32>() {
                    assert!((1..=5).contains(&n), "a flagship tie of {n}%");
                }
            }
        }
    }
    // A value pick gives its speed as a share of the flagship's, unless it is the flagship
    // (a tie the estimate cannot resolve can make the cheaper card both).
    let pick = |page: &str, tier: &str| -> Option<(String, String)> {
        let from = page.find(&format!("data-testid=\"pick-{tier}\" data-gpu-id=\""))?;
        let line = &page[from..from + page[from..].find("</li>")?];
        let id = line.split('"').nth(3)?.to_string();
        Some((id, line.to_string()))
    };
    let mut both = 0;
    for page in &pages {
        if let (Some((flagship, _)), Some((value, line))) =
            (pick(page, "flagship"), pick(page, "value"))
        {
            let told = line.contains("of the flagship&#39;s speed");
            assert_eq!(told, flagship != value, "{line}");
            both += usize::from(flagship == value);
        }
    }
    assert!(both > 0, "a state whose value pick is its flagship");
    // The answer's "N% of the fastest candidate's speed" speaks of the GPUs the picks
    // choose among: a top card that is the flagship is within the flagship's tie of the
    // fastest of them (`rank::FLAGSHIP_TIE`, 5%).
    let mut checked = 0;
    for page in &pages {
        let top = page
            .split_once("data-top=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(id, _)| id.to_string());
        let why = page
            .split_once("class=\"answer-why\">")
            .and_then(|(_, rest)| rest.split_once("</p>"))
            .map(|(line, _)| line.to_string());
        if let (Some(top), Some((flagship, _)), Some(why)) = (top, pick(page, "flagship"), why) {
            let share = why
                .split_once("% of the fastest candidate")
                .and_then(|(head, _)| head.rsplit(' ').next()?.parse::<u32>().ok());
            if let (true, Some(share)) = (top == flagship, share) {
                assert!(share >= 95, "{why}");
                checked += 1;
            }
        }
    }
    assert!(
        checked > 0,
        "a state whose top card is its flagship and says its share"
    );
    // A rented job's cost says how much start-up it counts.
    let rent = state(&pages, "lora-rent");
    assert!(
        rent.contains("min of start-up"),
        "the rented job's start-up"
    );
    // Renting, a card's cost line starts with the rental; a purchase price comes after.
    for card in rent.split("class=\"rank-item\"").skip(1) {
        if let Some((_, line)) = card.split_once("class=\"rank-cost\">") {
            assert!(line.starts_with("rent "), "{}", &line[..line.len().min(80)]);
        }
    }
    // A team's 70B with one GPU per box: the answer offers a server's GPUs, with the pace
    // each of the 32 users would get.
    let team = state(&pages, "team-70b");
    let from = team
        .find("data-testid=\"alternative\"")
        .expect("an alternative");
    let alt = &team[from..from + team[from..].find("</li>").expect("the line closes")];
    assert!(alt.contains("data-nav=\"gpus:4\""), "{alt}");
    assert!(alt.contains("for each of 32 users"), "{alt}");
    // Llama 4 Scout at $3,000 with 32 GB of system memory runs only below 4 bits: the
    // answer offers the memory that holds it in 4 bits, under a heading that says so.
    let scout = state(&pages, "scout-3000");
    assert!(scout.contains("One change runs it in 4-bit weights or more:"));
    assert!(scout.contains("data-nav=\"host:64\""));
    // Every GPU that serves them as entered is too slow for them, or (FLUX.1 [dev] asked in
    // 16 bits at $2,500) runs it only on PyTorch's legacy wheels: the answer says so first,
    // and only there.
    for (page, (name, _)) in pages.iter().zip(STATES) {
        let lead = page
            .split_once("data-testid=\"answer-lead\">")
            .map(|(_, rest)| rest.split('<').next().unwrap_or_default());
        match *name {
            "team-70b" => assert!(lead.is_some_and(|l| l.contains("usable pace")), "{lead:?}"),
            "flux-2500" | "scout-3000" => {
                assert!(lead.is_some_and(|l| l.contains("as asked")), "{lead:?}")
            }
            _ => assert_eq!(lead, None, "{name}"),
        }
    }
}

#[test]
fn a_long_notice_lists_five_lines_and_counts_the_rest() {
    let query: String = (0..8)
        .map(|i| format!("k{i}=\u{202e}x"))
        .collect::<Vec<_>>()
        .join("&");
    let (state, ignored) = share::parse(&query, Catalog::embedded());
    assert_eq!(ignored.len(), 8);
    let d = Draw {
        lang: Lang::En,
        state: &state,
        path: "",
        evidence: None,
    };
    let html = notice(&d, &ignored);
    assert_eq!(html.matches("<li>").count(), 6, "{html}");
    assert_eq!(html.matches("<bdi>").count(), 5, "{html}");
    assert!(html.contains("<li>and 3 more</li>"), "{html}");
    assert!(!html.contains("<code></code>"));
}
