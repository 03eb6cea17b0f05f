# A script the crate's edit attaches to a node it adds (resource_text_live.rs).
extends Node2D

var marker = 42
