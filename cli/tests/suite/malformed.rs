//! Truncated, garbage and huge input: the binary never panics, exits 1 with an error, and
//! reads a stream frame by frame in bounded memory.

use crate::common;

use common::{BIN, root, run};
use std::io::Write as _;
use std::process::{Command, Stdio};

/// Every mode the input can be read in.
const MODES: [&[&str]; 12] = [
    &["inspect"],
    &["inspect", "--raw"],
    &["inspect", "--packet"],
    &["inspect", "--stream"],
    &["inspect", "--save", "--godot3"],
    &["inspect", "--stream", "--json"],
    &["inspect", "--raw", "--text", "--godot3"],
    &["inspect", "--json", "--allow-objects", "--godot4.3"],
    &["inspect", "--text", "--godot4.0", "--max-depth", "1024"],
    &["convert", "--hex-out"],
    &["convert", "--raw", "--hex-out"],
    &["encode", "--stream", "--hex"],
];

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn every_prefix_of_an_engine_save_file() {
    let save = std::fs::read(root().join("examples/data/godot3_save.dat")).unwrap();
    // Cut at every word boundary and a few unaligned places: no panic, and a cut inside a
    // frame is an error (exit 1) in every framed mode.
    let mut cuts: Vec<usize> = (0..save.len()).step_by(12).collect();
    cuts.extend([1, 2, 3, 83, 84, 85, 86, 548, 756, 770, 771, 772]);
    for cut in cuts {
        let part = &save[..cut];
        for mode in [
            &["inspect", "--save", "--godot3"][..],
            &["convert"],
            &["inspect", "--godot3", "--json"],
        ] {
            let r = run(mode, part);
            // An empty input is an error when its framing must be guessed.
            let guessed = mode[0] == "inspect" && !mode.contains(&"--save");
            let boundary = [0usize, 84, 548, 756, 772].contains(&cut) && !(cut == 0 && guessed);
            assert_eq!(
                r.code,
                Some(if boundary { 0 } else { 1 }),
                "{mode:?} on the first {cut} bytes: {}",
                r.stderr
            );
        }
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let save = std::fs::read(root().join("examples/data/godot3_save.dat")).unwrap();
    for case in 0..60 {
        // Random bytes, or the save file with a few bytes flipped.
        let bytes: Vec<u8> = if case % 2 == 0 {
            let len = (rng.next() % 200) as usize;
            (0..len).map(|_| rng.next() as u8).collect()
        } else {
            let mut b = save.clone();
            for _ in 0..1 + rng.next() % 4 {
                let i = (rng.next() as usize) % b.len();
                b[i] = rng.next() as u8;
            }
            b
        };
        let mode = MODES[case % MODES.len()];
        let r = run(mode, &bytes);
        assert!(
            matches!(r.code, Some(0 | 1)),
            "{mode:?} case {case}: exit {:?}\n{}",
            r.code,
            r.stderr
        );
        if r.code == Some(1) {
            assert!(
                r.stderr.contains("error:"),
                "{mode:?} case {case}: {}",
                r.stderr
            );
        }
    }
    // Hostile lengths: a 4 GiB frame, a String of 2^31 bytes, an Array of 2^31 elements.
    for hex in [
        "ffffffff 02000000",
        "04000000 ffffff7f",
        "1c000000 ffffff7f",
        "08000000 1c000000 ffffff7f",
    ] {
        for mode in MODES.iter().take(11) {
            let mut args = mode.to_vec();
            args.extend(["--hex", hex]);
            let r = run(&args, b"");
            assert_eq!(r.code, Some(1), "{args:?}: {}", r.stderr);
        }
    }
}

/// The peak resident memory of a running process, in KiB (Linux).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_large_stream_is_read_frame_by_frame() {
    if !cfg!(target_os = "linux") {
        return;
    }
    // 32 MiB of StreamPeer frames, each a String of 64 KiB: String (id 4 in Godot 3 and 4),
    // length, the UTF-8 bytes (no padding: 65536 is a multiple of 4). Printing a String is
    // cheap, so the time goes into reading.
    const FRAME_PAYLOAD: usize = 8 + 65536;
    const FRAMES: usize = 32 * 16;
    let mut frame = Vec::with_capacity(4 + FRAME_PAYLOAD);
    frame.extend((FRAME_PAYLOAD as u32).to_le_bytes());
    frame.extend(4u32.to_le_bytes());
    frame.extend(65536u32.to_le_bytes());
    frame.extend((0..65536u32).map(|i| b'a' + (i % 26) as u8));
    for args in [
        &["inspect", "--stream", "--json"][..],
        &["inspect", "--text"],
        &["convert", "--stream"],
    ] {
        // stderr goes to a file: a pipe nobody reads could fill up and block the binary.
        let log =
            std::env::temp_dir().join(format!("godot_serde_cli_large_{}.log", std::process::id()));
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for _ in 0..FRAMES {
            stdin.write_all(&frame).unwrap();
        }
        stdin.flush().unwrap();
        // Everything written so far has been read by the binary (the pipe holds at most
        // 64 KiB): its peak memory now covers the whole stream.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let peak = peak_rss_kib(child.id()).expect("read /proc/PID/status");
        drop(stdin);
        let status = child.wait().unwrap();
        let stderr = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        assert_eq!(status.code(), Some(0), "{args:?}: {stderr}");
        // 32 MiB went through (reading it whole would take more than 32 MiB); the guess buffer (8 MiB, `inspect` without --stream), one frame
        // and the JSON of one frame (~ 64 KiB * 4) stay resident at most.
        eprintln!(
            "{args:?}: peak RSS {peak} KiB for {} MiB of input",
            (FRAMES * (4 + FRAME_PAYLOAD)) >> 20
        );
        assert!(peak < 24 * 1024, "{args:?}: peak RSS {peak} KiB");
    }
}
