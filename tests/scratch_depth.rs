//! Depth probe.
use godot_serde::Config;

fn nested(depth: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..depth {
        v.extend_from_slice(&[0x1c, 0, 0, 0, 1, 0, 0, 0]);
    }
    v.extend_from_slice(&[0x1c, 0, 0, 0, 0, 0, 0, 0]);
    v
}

#[test]
fn deep_json_value() {
    for d in [64usize, 128, 256, 512, 1024] {
        let bytes = nested(d);
        let h = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let r: Result<serde_json::Value, _> = Config::default().from_bytes(&bytes);
                r.is_ok()
            })
            .unwrap()
            .join();
        println!("{d}: {:?}", h);
        if h.is_err() {
            break;
        }
    }
}
