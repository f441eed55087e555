//! The trace stepper (`sim run … --html FILE`) in a real browser: headless Chromium driven through chromedriver
//! (WebDriver), the page opened from a file with no network.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them); `WARPSIM_CHROMIUM` and
//! `WARPSIM_CHROMEDRIVER` name other binaries. Without a browser these tests fail when `CI` is set or
//! `WARPSIM_REQUIRE_BROWSER=1`, and elsewhere say that they were skipped.
//!
//! `WARPSIM_UPDATE_DOCS=1` also writes the butterfly screenshot to `docs/stepper-butterfly_max-w8.png`.

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn find_binary(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    // The PATH first (as `.ci/run`'s `command -v` looks), then where Debian puts them.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .chain(["/usr/bin", "/usr/local/bin", "/usr/lib/chromium"].map(PathBuf::from))
        .collect();
    for name in names {
        for dir in &dirs {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium and chromedriver, or `None` (after saying so) when they are missing and not required.
pub(crate) fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_binary("WARPSIM_CHROMIUM", &["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_binary("WARPSIM_CHROMEDRIVER", &["chromedriver"]);
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        _ => {
            let required = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false")
                || std::env::var_os("WARPSIM_REQUIRE_BROWSER").is_some_and(|v| v == "1");
            assert!(
                !required,
                "the browser tests need chromium and chromedriver (apt-get install chromium chromium-driver)"
            );
            eprintln!("SKIPPED: no chromium/chromedriver on this machine (apt-get install chromium chromium-driver)");
            None
        }
    }
}

/// chromedriver on a free loopback port, killed on drop.
pub(crate) struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn start_driver(path: &Path) -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    Driver { child, port }
}

pub(crate) async fn connect(driver: &Driver, chromium: &Path, profile: &Path) -> Client {
    let caps = serde_json::json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1500,1000",
                format!("--user-data-dir={}", profile.display()),
            ]
        }
    });
    let caps = caps.as_object().expect("an object").clone();
    let url = format!("http://127.0.0.1:{}", driver.port);
    let start = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return c,
            Err(_) if start.elapsed() < Duration::from_secs(30) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => panic!("cannot start a browser session through chromedriver: {e}"),
        }
    }
}

/// `sim run PROGRAM ARGS… --html FILE`; the file's path.
fn write_page(name: &str, args: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.html"));
    let o = Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(["run"])
        .args(args)
        .arg("--html")
        .arg(&file)
        .env("NO_COLOR", "1")
        .output()
        .expect("run sim");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&file).expect("the page");
    // Self-contained: nothing to fetch.
    for needle in ["<link", "src=", "href=", "@import", "url(http"] {
        assert!(
            !html.contains(needle),
            "the page refers to something outside itself: `{needle}`"
        );
    }
    file
}

pub(crate) async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("text")
}

pub(crate) async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .expect(css)
        .click()
        .await
        .expect("click");
}

pub(crate) async fn press(c: &Client, key: Key) {
    let k: char = key.into();
    let actions = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(actions).await.expect("key press");
}

/// The timeline's cycle-axis labels, as numbers.
async fn axis_ticks(c: &Client) -> Vec<u64> {
    let mut out = Vec::new();
    for t in c
        .find_all(Locator::Css("#timeline-svg text.tl-tick"))
        .await
        .expect("ticks")
    {
        out.push(t.text().await.expect("tick").parse::<u64>().expect("a whole number"));
    }
    out
}

async fn row(c: &Client, reg: &str) -> Vec<String> {
    let cells = c
        .find_all(Locator::Css(&format!("tr[data-reg='{reg}'] td")))
        .await
        .expect("register row");
    let mut out = Vec::new();
    for cell in cells {
        out.push(cell.text().await.expect("cell"));
    }
    out
}

async fn open(c: &Client, file: &Path) {
    c.goto(&format!("file://{}", file.display()))
        .await
        .expect("open the page");
    c.wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css("body[data-ready='true']"))
        .await
        .expect("the page initialised");
    // Offline: the page fetched nothing.
    let fetched = c
        .execute("return performance.getEntriesByType('resource').length", vec![])
        .await
        .expect("script");
    assert_eq!(fetched, serde_json::json!(0), "the page fetched resources");
}

/// `count[0]` of `sim run histogram_bin` (block 0's number of values in the target bin), from the library.
fn histogram_count() -> u64 {
    let program = warpsim::programs::assemble("histogram_bin")
        .expect("shipped")
        .expect("assembles");
    let config = warpsim::Config::hopper();
    let kernel = warpsim::instantiate(&program, &config, &warpsim::Launch::default()).expect("loads");
    let out = warpsim::run(&kernel, &config, &warpsim::RunOptions::default(), &mut warpsim::NoTrace).expect("runs");
    u64::from(out.buffer("count").expect("count").data[0])
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}

#[test]
fn butterfly_stepper_shows_the_end_of_step_2() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let file = write_page("butterfly_max-w8", &["butterfly_max", "--warp", "8"]);
    let driver = start_driver(&chromedriver);
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser/profile-butterfly");
    let _ = std::fs::remove_dir_all(&profile);
    runtime().block_on(async {
        let c = connect(&driver, &chromium, &profile).await;
        open(&c, &file).await;
        assert_eq!(text(&c, "#position").await, "0");
        assert_eq!(text(&c, "#exchanges").await, "0");
        // Next, through step 1 and step 2, until step 3's shuffle is the current event.
        let total: usize = text(&c, "#total").await.parse().expect("a count");
        let mut saw_step2_shuffle = false;
        for _ in 0..total {
            click(&c, "#next").await;
            let exchanges = text(&c, "#exchanges").await;
            if exchanges == "2" && !saw_step2_shuffle {
                // Step 2's shuffle: 8 arrows, lane l reads lane l ^ 2.
                saw_step2_shuffle = true;
                let arrows = c
                    .find_all(Locator::Css("#exchange-svg line.arrow"))
                    .await
                    .expect("arrows");
                assert_eq!(arrows.len(), 8);
                assert_eq!(
                    row(&c, "%other").await,
                    ["12", "1000", "8", "10", "12", "1000", "8", "10"]
                );
                let current = text(&c, "#listing li.current").await;
                assert!(current.contains("shfl.sync.bfly"), "{current}");
            }
            if exchanges == "3" {
                break;
            }
        }
        assert!(saw_step2_shuffle);
        assert_eq!(text(&c, "#exchanges").await, "3");
        // One back with the arrow key: the end of step 2.
        press(&c, Key::Left).await;
        assert_eq!(text(&c, "#exchanges").await, "2");
        assert_eq!(
            row(&c, "%v").await,
            ["12", "1000", "12", "1000", "12", "1000", "12", "1000"]
        );
        assert_eq!(
            c.find_all(Locator::Css("#listing li.current"))
                .await
                .expect("listing")
                .len(),
            1
        );
        // The exchange panel keeps showing the warp's latest exchange: step 2, 8 arrows.
        assert!(text(&c, "#exchange-title").await.contains("step 2"));
        assert_eq!(
            c.find_all(Locator::Css("#exchange-svg line.arrow"))
                .await
                .expect("arrows")
                .len(),
            8
        );
        let cycle: u64 = text(&c, "#cycle").await.parse().expect("a cycle");
        assert!(cycle > 0);
        let png = c.screenshot().await.expect("screenshot");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser/stepper-butterfly_max-w8.png");
        std::fs::write(&out, &png).expect("save the screenshot");
        if std::env::var_os("WARPSIM_UPDATE_DOCS").is_some_and(|v| v == "1") {
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/stepper-butterfly_max-w8.png");
            std::fs::write(docs, &png).expect("update docs/");
        }
        // The timeline's cycle axis: whole cycles from 0, each tick a new one, reaching the run's end.
        let ticks = axis_ticks(&c).await;
        assert_eq!(ticks.first(), Some(&0), "{ticks:?}");
        assert!(ticks.windows(2).all(|p| p[0] < p[1]) && ticks.len() >= 4, "{ticks:?}");
        // Right arrow goes forward again; Home and End go to the ends.
        press(&c, Key::Right).await;
        assert_eq!(text(&c, "#exchanges").await, "3");
        press(&c, Key::End).await;
        assert_eq!(text(&c, "#position").await, total.to_string());
        assert_eq!(row(&c, "%v").await, vec!["1000"; 8]);
        press(&c, Key::Home).await;
        assert_eq!(text(&c, "#position").await, "0");
        // A run of one cycle: the axis still counts whole cycles, each tick once (a fractional step once
        // labelled them 0, 1, 1).
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
        let tiny = dir.join("tiny.s");
        std::fs::write(&tiny, ".kernel tiny\n.block W\n  exit\n").expect("write");
        let page = write_page("tiny", &[tiny.to_str().expect("a path"), "--warp", "8"]);
        open(&c, &page).await;
        let ticks = axis_ticks(&c).await;
        assert_eq!(ticks.first(), Some(&0), "{ticks:?}");
        assert!(ticks.windows(2).all(|p| p[0] < p[1]) && ticks.len() >= 2, "{ticks:?}");
        c.close().await.expect("close");
    });
}

#[test]
fn histogram_stepper_steps_through_all_four_warps_and_the_barriers() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let file = write_page("histogram_bin", &["histogram_bin"]);
    let driver = start_driver(&chromedriver);
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser/profile-histogram");
    let _ = std::fs::remove_dir_all(&profile);
    runtime().block_on(async {
        let c = connect(&driver, &chromium, &profile).await;
        open(&c, &file).await;
        let total: usize = text(&c, "#total").await.parse().expect("a count");
        // Every event, forward with the ▶ button, in one script (a WebDriver round trip per click took 20 s): what
        // each event panel said, and whether any warp was shown waiting at a barrier or stalled at that point.
        let walk = c
            .execute(
                r##"const out = [];
                   const next = document.getElementById("next");
                   for (let k = 0; k < arguments[0]; k++) {
                     next.click();
                     const ev = document.getElementById("event");
                     const n = (css) => document.querySelectorAll(css).length;
                     out.push([ev.dataset.kind || "", ev.textContent, n("#warps td.st-barrier") > 0,
                               n("#warps td.st-stall") > 0, n("#shared td.st"), n("#shared td.ld"), n("#shared td.at")]);
                   }
                   return out;"##,
                vec![serde_json::json!(total)],
            )
            .await
            .expect("script");
        let walk = walk.as_array().expect("an array");
        assert_eq!(walk.len(), total);
        let mut issued_by = std::collections::BTreeSet::new();
        let (mut arrivals, mut releases, mut seen_waiting, mut seen_stall) = (0, 0, false, false);
        // The shared-memory panel outlines the words each shared access touched, by what it did: (store, load,
        // atomic) cells outlined when this instruction is the current event.
        let mut outlined: std::collections::BTreeMap<&str, std::collections::BTreeSet<(u64, u64, u64)>> =
            std::collections::BTreeMap::default();
        for step in walk {
            let (kind, what) = (step[0].as_str().expect("kind"), step[1].as_str().expect("text"));
            for text in [
                "st.shared.u32 totals[%warpid]",
                "ld.shared.u32 %total, totals[%laneid]",
                "st.shared.u32 offsets[%laneid]",
                "ld.shared.u32 %offset, offsets[%warpid]",
            ] {
                if what.contains(text) {
                    let n = |k: usize| step[k].as_u64().expect("a count");
                    outlined.entry(text).or_default().insert((n(4), n(5), n(6)));
                }
            }
            match kind {
                "issue" => {
                    let warp = what
                        .split("warp ")
                        .nth(1)
                        .and_then(|s| s.split(' ').next())
                        .unwrap_or("?");
                    issued_by.insert(warp.to_string());
                }
                "arrive" => {
                    arrivals += 1;
                    seen_waiting |= step[2] == true;
                }
                "release" => releases += 1,
                _ => {}
            }
            seen_stall |= step[3] == true;
        }
        assert_eq!(text(&c, "#position").await, total.to_string());
        assert!(
            c.find(Locator::Css("#next"))
                .await
                .expect("next")
                .attr("disabled")
                .await
                .expect("attr")
                .is_some()
        );
        assert_eq!(issued_by.into_iter().collect::<Vec<_>>(), ["0", "1", "2", "3"]);
        // Two `bar.sync 0`, each reached by the four warps.
        assert_eq!((arrivals, releases), (8, 2));
        assert!(seen_waiting, "no warp was ever shown waiting at the barrier");
        assert!(seen_stall, "no warp was ever shown stalled");
        // Each warp's last lane stores its total (one word); warp 0's lanes 0-3 load the four totals; its lanes
        // 0-3 store the four offsets; each warp's 32 lanes load one offset (a broadcast: one word).
        let expect = |st, ld| std::collections::BTreeSet::from([(st, ld, 0)]);
        assert_eq!(outlined["st.shared.u32 totals[%warpid]"], expect(1, 0));
        assert_eq!(outlined["ld.shared.u32 %total, totals[%laneid]"], expect(0, 4));
        assert_eq!(outlined["st.shared.u32 offsets[%laneid]"], expect(4, 0));
        assert_eq!(outlined["ld.shared.u32 %offset, offsets[%warpid]"], expect(0, 1));
        // At the end the panel holds what the block left: the offsets are the exclusive scan of the totals.
        let words = |array: &str| {
            let c = &c;
            let css = format!("#shared table[data-array='{array}'] td[data-index]");
            async move {
                let mut out = Vec::new();
                for cell in c.find_all(Locator::Css(&css)).await.expect("cells") {
                    out.push(cell.text().await.expect("cell").parse::<u64>().expect("a number"));
                }
                out
            }
        };
        let totals = words("totals").await;
        let offsets = words("offsets").await;
        assert_eq!(totals.len(), 4);
        // The four warps' totals add up to the block's count, as the same run without the page computes it.
        assert_eq!(totals.iter().sum::<u64>(), histogram_count(), "{totals:?}");
        let scan: Vec<u64> = (0..4).map(|k| totals[..k].iter().sum()).collect();
        assert_eq!(offsets, scan);
        // The timeline: a row per warp, a mark per issued instruction; a click goes to the first event at the
        // clicked cycle or later.
        let issues = walk.iter().filter(|s| s[0] == "issue").count();
        let svg = c.find(Locator::Css("#timeline-svg")).await.expect("timeline");
        assert_eq!(svg.attr("data-issues").await.expect("attr"), Some(issues.to_string()));
        assert_eq!(c.find_all(Locator::Css("#timeline-svg g.tl-row")).await.expect("rows").len(), 4);
        assert_eq!(
            c.find_all(Locator::Css("#timeline-svg rect.tl-issue")).await.expect("marks").len(),
            issues
        );
        svg.click().await.expect("click the timeline");
        let at = c
            .execute(
                "return [Number(document.getElementById('timeline-svg').dataset.clicked), pos, EV[pos - 1].c, pos > 1 ? EV[pos - 2].c : -1]",
                vec![],
            )
            .await
            .expect("script");
        let n = |k: usize| at[k].as_i64().expect("a number");
        let (clicked, position, cycle, before) = (n(0), n(1), n(2), n(3));
        assert!(clicked > 0 && position > 0, "{at:?}");
        assert!(cycle >= clicked && before < clicked, "{at:?}");
        assert_eq!(text(&c, "#position").await, position.to_string());
        click(&c, "#last").await;
        let states = c
            .find_all(Locator::Css("#warps tbody tr td:nth-child(3)"))
            .await
            .expect("warps");
        assert_eq!(states.len(), 4);
        for s in states {
            assert_eq!(s.text().await.expect("state"), "exited");
        }
        // Back to the start with the buttons.
        click(&c, "#first").await;
        assert_eq!(text(&c, "#position").await, "0");
        c.close().await.expect("close");
    });
}

/// A global atomic's old values arrive as their own event: stepping onto it fills the register row of its warp
/// (block 0 commits first, so its lanes get 0..7), marked as written; stepping back empties it again (the
/// atomic's issue wrote nothing the page shows).
#[test]
fn stepper_shows_a_global_atomics_old_values_when_they_arrive() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source = dir.join("atomic_return.s");
    std::fs::write(
        &source,
        ".grid 2\n.block 8\n.buffer c u32[1]\n.reg %t\n        atom.global.add.u32 %t, c[0], 1\n        exit\n",
    )
    .expect("write the program");
    let file = write_page(
        "atomic_return",
        &[source.to_str().expect("a UTF-8 path"), "--warp", "8"],
    );
    let driver = start_driver(&chromedriver);
    let profile = dir.join("profile-atomic-return");
    let _ = std::fs::remove_dir_all(&profile);
    runtime().block_on(async {
        let c = connect(&driver, &chromium, &profile).await;
        open(&c, &file).await;
        let total: usize = text(&c, "#total").await.parse().expect("a count");
        let kind = |c: Client| async move {
            c.find(Locator::Css("#event"))
                .await
                .expect("#event")
                .attr("data-kind")
                .await
                .expect("attribute")
                .unwrap_or_default()
        };
        let mut returns = 0;
        for _ in 0..total {
            click(&c, "#next").await;
            if kind(c.clone()).await != "return" {
                continue;
            }
            returns += 1;
            let event = text(&c, "#event").await;
            if event.contains("block 0 warp 0") {
                assert!(event.contains("old values of the atomic at pc 0"), "{event}");
                assert_eq!(row(&c, "%t").await, ["0", "1", "2", "3", "4", "5", "6", "7"]);
                let class = c
                    .find(Locator::Css("tr[data-reg='%t']"))
                    .await
                    .expect("row")
                    .attr("class")
                    .await
                    .expect("attribute");
                assert_eq!(class.as_deref(), Some("written"));
                press(&c, Key::Left).await;
                assert_eq!(row(&c, "%t").await, ["", "", "", "", "", "", "", ""]);
                press(&c, Key::Right).await;
            } else {
                assert!(event.contains("block 1 warp 0"), "{event}");
                assert_eq!(row(&c, "%t").await, ["8", "9", "10", "11", "12", "13", "14", "15"]);
            }
        }
        assert_eq!(returns, 2);
        c.close().await.expect("close the browser");
    });
}

/// The page formats an f32 from the trace's schema (its exact value as a JSON number, or the bits of a NaN or an
/// infinity) exactly as the text trace does (Rust's shortest round-trip form): every power of two (where the
/// rounding interval is lopsided), the edges, and 3,000 more bit patterns spread over every exponent.
#[test]
fn stepper_formats_f32_values_as_the_text_trace_does() {
    let Some((chromium, chromedriver)) = browser() else {
        return;
    };
    let file = write_page("f32-format", &["butterfly_max", "--warp", "8"]);
    let mut bits: Vec<u32> = (0..255u32).map(|e| e << 23).collect();
    bits.extend([
        1,
        2,
        3,
        0x007f_ffff,
        0x0080_0001,
        0x3dcc_cccd,
        0x3eaa_aaab,
        0x7f7f_ffff,
        0x4b7f_ffff,
    ]);
    bits.extend([
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
        0x8000_0000,
    ]);
    // A fixed sequence (a 32-bit LCG): the same values every run.
    let mut x = 12_345u32;
    for _ in 0..3000 {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        bits.push(x);
    }
    let values: Vec<serde_json::Value> = bits.iter().map(|&b| warpsim::render::json::f32_value(b)).collect();
    let expected: Vec<String> = bits.iter().map(|&b| format!("{}", f32::from_bits(b))).collect();
    let driver = start_driver(&chromedriver);
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser/profile-f32");
    let _ = std::fs::remove_dir_all(&profile);
    runtime().block_on(async {
        let c = connect(&driver, &chromium, &profile).await;
        open(&c, &file).await;
        let shown = c
            .execute(
                "return arguments[0].map(f32text);",
                vec![serde_json::Value::from(values)],
            )
            .await
            .expect("script");
        let shown: Vec<String> = serde_json::from_value(shown).expect("strings");
        for ((b, got), want) in bits.iter().zip(&shown).zip(&expected) {
            assert_eq!(got, want, "f32 bits {b:#010x}");
        }
        c.close().await.expect("close the browser");
    });
}
