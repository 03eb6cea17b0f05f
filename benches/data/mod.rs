//! Benchmark datasets, generated deterministically (no randomness, no files), shared by
//! `benches/ratios.rs` and `tests/suite/alloc_perf.rs`.

#![allow(dead_code)]

use godot_serde::{
    PackedByteArray, PackedFloat32Array, PackedStringArray, PackedVector3Array, Real, Vector2,
    Vector3,
};
use serde::{Deserialize, Serialize};

/// A small deterministic generator (xorshift64*), so every run sees the same data.
pub struct Gen(u64);

impl Gen {
    pub fn new(seed: u64) -> Self {
        Gen(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// A float in [-range, range) with few significant bits, like game coordinates.
    pub fn coord32(&mut self, range: f32) -> f32 {
        #[allow(clippy::cast_precision_loss)]
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (unit * 2.0 - 1.0) * range
    }
    /// As [`Gen::coord32`], as a math-type component.
    pub fn coord(&mut self, range: f32) -> Real {
        Real::from(self.coord32(range))
    }
}

// ---------------------------------------------------------------------------------------------
// mesh: the dataset of the public rust_serialization_benchmark, 125 000 triangles.

pub const TRIANGLES: usize = 125_000;

/// The mesh as Godot holds it: 4 Vector3 per triangle (3 vertices and the normal) in one
/// PackedVector3Array (6 000 008 bytes encoded).
pub fn mesh() -> PackedVector3Array {
    let mut g = Gen::new(1);
    let mut v = Vec::with_capacity(TRIANGLES * 4);
    for _ in 0..TRIANGLES * 4 {
        v.push(Vector3::new(g.coord(100.0), g.coord(100.0), g.coord(100.0)));
    }
    PackedVector3Array(v)
}

/// One triangle as rust_serialization_benchmark declares it, for the other formats.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Triangle {
    pub v0: Vector3,
    pub v1: Vector3,
    pub v2: Vector3,
    pub normal: Vector3,
}

/// The same mesh as `Vec<Triangle>`, the form the other formats are benchmarked with.
pub fn mesh_triangles(mesh: &PackedVector3Array) -> Vec<Triangle> {
    mesh.chunks_exact(4)
        .map(|t| Triangle {
            v0: t[0],
            v1: t[1],
            v2: t[2],
            normal: t[3],
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// packed: 6 MB of f32 and 6 MB of bytes.

pub const PACKED_BYTES: usize = 6_000_000;

pub fn packed_floats() -> PackedFloat32Array {
    let mut g = Gen::new(2);
    PackedFloat32Array((0..PACKED_BYTES / 4).map(|_| g.coord32(1000.0)).collect())
}

pub fn packed_bytes() -> PackedByteArray {
    let mut g = Gen::new(3);
    #[allow(clippy::cast_possible_truncation)]
    PackedByteArray((0..PACKED_BYTES).map(|_| g.next_u64() as u8).collect())
}

// ---------------------------------------------------------------------------------------------
// game state: 2 000 players, 10 000 projectiles.

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Item {
    pub id: u32,
    pub name: String,
    pub count: u16,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Player {
    pub id: u32,
    pub name: String,
    pub position: Vector3,
    pub velocity: Vector2,
    pub rotation: f32,
    pub health: f32,
    pub score: i64,
    pub team: Option<u8>,
    pub items: Vec<Item>,
    pub tags: PackedStringArray,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Projectile {
    pub id: u32,
    pub owner: u32,
    pub position: Vector3,
    pub velocity: Vector3,
    pub damage: f32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameState {
    pub tick: u64,
    pub players: Vec<Player>,
    pub projectiles: Vec<Projectile>,
}

/// The same structs with borrowed names (`&'a str`), for zero-copy decoding.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ItemRef<'a> {
    pub id: u32,
    #[serde(borrow)]
    pub name: &'a str,
    pub count: u16,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct PlayerRef<'a> {
    pub id: u32,
    #[serde(borrow)]
    pub name: &'a str,
    pub position: Vector3,
    pub velocity: Vector2,
    pub rotation: f32,
    pub health: f32,
    pub score: i64,
    pub team: Option<u8>,
    #[serde(borrow)]
    pub items: Vec<ItemRef<'a>>,
    #[serde(borrow)]
    pub tags: Vec<&'a str>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GameStateRef<'a> {
    pub tick: u64,
    #[serde(borrow)]
    pub players: Vec<PlayerRef<'a>>,
    pub projectiles: Vec<Projectile>,
}

const ITEM_NAMES: [&str; 6] = ["potion", "sword", "shield", "arrow", "bandage", "map"];
const TAGS: [&str; 5] = ["admin", "vip", "muted", "newbie", "streamer"];

pub fn player(g: &mut Gen, id: u32, items: usize) -> Player {
    Player {
        id,
        name: format!("player_{id:05}"),
        position: Vector3::new(g.coord(500.0), g.coord(50.0), g.coord(500.0)),
        velocity: Vector2::new(g.coord(10.0), g.coord(10.0)),
        rotation: g.coord32(3.0),
        #[allow(clippy::cast_precision_loss)]
        health: g.below(101) as f32,
        #[allow(clippy::cast_possible_wrap)]
        score: g.below(1 << 40) as i64,
        #[allow(clippy::cast_possible_truncation)]
        team: (!id.is_multiple_of(4)).then_some((id % 3) as u8),
        items: (0..items)
            .map(|i| Item {
                #[allow(clippy::cast_possible_truncation)]
                id: (id * 16 + i as u32),
                name: ITEM_NAMES[g.below(6) as usize].to_owned(),
                #[allow(clippy::cast_possible_truncation)]
                count: g.below(99) as u16 + 1,
            })
            .collect(),
        tags: PackedStringArray(
            (0..g.below(3) + 1)
                .map(|_| TAGS[g.below(5) as usize].to_owned())
                .collect(),
        ),
    }
}

pub fn game_state() -> GameState {
    let mut g = Gen::new(4);
    let players = (0..2_000)
        .map(|id| {
            #[allow(clippy::cast_possible_truncation)]
            let items = 3 + g.below(4) as usize;
            player(&mut g, id, items)
        })
        .collect();
    let projectiles = (0..10_000)
        .map(|id| Projectile {
            id: 100_000 + id,
            #[allow(clippy::cast_possible_truncation)]
            owner: g.below(2_000) as u32,
            position: Vector3::new(g.coord(500.0), g.coord(50.0), g.coord(500.0)),
            velocity: Vector3::new(g.coord(30.0), g.coord(30.0), g.coord(30.0)),
            damage: 5.0 + g.coord32(4.0).abs(),
        })
        .collect();
    GameState {
        tick: 123_456_789,
        players,
        projectiles,
    }
}

// ---------------------------------------------------------------------------------------------
// message: one player, about one network packet.

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Message {
    pub tick: u64,
    pub player: Player,
}

pub fn message() -> Message {
    let mut g = Gen::new(5);
    Message {
        tick: 123_456_789,
        player: player(&mut g, 42, 9),
    }
}

/// The part of a player that `godot-binary-serialization` 0.2 can express (it has no
/// Array, no packed arrays).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FlatPlayer {
    pub id: u32,
    pub name: String,
    pub position: Vector3,
    pub velocity: Vector2,
    pub rotation: f32,
    pub health: f32,
    pub score: i64,
    pub team: Option<u8>,
}

pub fn flat_player(p: &Player) -> FlatPlayer {
    FlatPlayer {
        id: p.id,
        name: p.name.clone(),
        position: p.position,
        velocity: p.velocity,
        rotation: p.rotation,
        health: p.health,
        score: p.score,
        team: p.team,
    }
}
