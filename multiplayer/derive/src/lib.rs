//! `#[derive(Rpcs)]`: a node's RPC set as one Rust enum, for `godot-serde-multiplayer`
//! (re-exported there as `godot_serde_multiplayer::Rpcs`, default feature `derive`).
//!
//! ```ignore
//! #[derive(Serialize, Deserialize, Rpcs)]
//! #[serde(rename_all = "snake_case")]
//! #[rpcs(node = "Lobby")]
//! enum LobbyRpc {
//!     #[rpc(any_peer, reliable, call_local, channel = 1)]
//!     Hello { name: String },
//!     Move(Vector2),
//! }
//! ```
//!
//! - `#[rpcs(node = "...")]` on the enum (required): the node's path.
//! - `#[rpc(...)]` on a variant (optional; `@rpc`'s options and defaults): `any_peer` or
//!   `authority` (default), `call_local` or `call_remote` (default), `reliable` (default),
//!   `unreliable` or `unreliable_ordered`, `channel = N` (0 by default); for Godot 3,
//!   `godot3 = "remote"` (`master`, `puppet`, `remotesync`, `mastersync`, `puppetsync`), by
//!   default the Godot 4 options' meaning (`any_peer`: `remote`, `authority`: `puppet`, with
//!   `call_local` their `*sync` forms).
//! - The fields are the arguments: their names and types give the typed GDScript parameters
//!   (`GodotTypeName`); a tuple variant's are `arg0`, `arg1`, ...
//!
//! The method names are serde's variant names, read at run time from the enum's
//! `Deserialize`, so `#[serde(rename...)]` applies; variants serde skips are refused here, so
//! the declarations and serde's names stay in step.

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::{Data, DeriveInput, Fields, LitInt, LitStr, parse_macro_input};

/// Implements `godot_serde_multiplayer::typed::RpcSet` for an enum (see the crate doc).
#[proc_macro_derive(Rpcs, attributes(rpcs, rpc))]
pub fn derive_rpcs(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    match expand(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

fn expand(input: &DeriveInput) -> syn::Result<Tokens> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(Rpcs)] is for an enum whose variants are a node's RPC methods",
        ));
    };
    let mut node: Option<LitStr> = None;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let text = quote!(#attr).to_string();
        if ["tag", "untagged", "content"]
            .iter()
            .any(|word| text.contains(word))
        {
            return Err(syn::Error::new_spanned(
                attr,
                "an RPC set is an externally tagged enum (the method is the variant): \
                 #[serde(tag, content, untagged)] do not apply",
            ));
        }
    }
    for attr in &input.attrs {
        if attr.path().is_ident("rpcs") {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("node") {
                    node = Some(meta.value()?.parse()?);
                    Ok(())
                } else {
                    Err(meta.error("expected `node = \"...\"`"))
                }
            })?;
        }
    }
    let Some(node) = node else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "missing #[rpcs(node = \"...\")]: the node's path",
        ));
    };
    let krate = quote!(::godot_serde_multiplayer);
    let mut decls = Vec::new();
    let mut arms = Vec::new();
    for (index, variant) in data.variants.iter().enumerate() {
        for attr in &variant.attrs {
            if attr.path().is_ident("serde") {
                let text = quote!(#attr).to_string();
                if text.contains("skip") || text.contains("other") || text.contains("untagged") {
                    return Err(syn::Error::new_spanned(
                        attr,
                        "an RPC set's variants are all methods: serde may not skip one",
                    ));
                }
            }
        }
        for field in variant.fields.iter() {
            for attr in field.attrs.iter().filter(|a| a.path().is_ident("serde")) {
                let text = quote!(#attr).to_string();
                if text.contains("skip") || text.contains("flatten") {
                    return Err(syn::Error::new_spanned(
                        attr,
                        "a method's fields are its arguments, one each: serde may not skip or \
                         flatten one",
                    ));
                }
            }
        }
        let mut mode = quote!(#krate::RpcMode::Authority);
        let mut transfer = quote!(#krate::TransferMode::Reliable);
        let mut call_local = false;
        let mut channel: u8 = 0;
        let mut godot3: Option<Tokens> = None;
        for attr in variant.attrs.iter().filter(|a| a.path().is_ident("rpc")) {
            attr.parse_nested_meta(|meta| {
                let p = &meta.path;
                if p.is_ident("any_peer") {
                    mode = quote!(#krate::RpcMode::AnyPeer);
                } else if p.is_ident("authority") {
                    mode = quote!(#krate::RpcMode::Authority);
                } else if p.is_ident("call_local") {
                    call_local = true;
                } else if p.is_ident("call_remote") {
                    call_local = false;
                } else if p.is_ident("reliable") {
                    transfer = quote!(#krate::TransferMode::Reliable);
                } else if p.is_ident("unreliable") {
                    transfer = quote!(#krate::TransferMode::Unreliable);
                } else if p.is_ident("unreliable_ordered") {
                    transfer = quote!(#krate::TransferMode::UnreliableOrdered);
                } else if p.is_ident("channel") {
                    let lit: LitInt = meta.value()?.parse()?;
                    channel = lit.base10_parse()?;
                } else if p.is_ident("godot3") {
                    let lit: LitStr = meta.value()?.parse()?;
                    let mode = match lit.value().as_str() {
                        "remote" => quote!(Remote),
                        "master" => quote!(Master),
                        "puppet" => quote!(Puppet),
                        "remotesync" => quote!(RemoteSync),
                        "mastersync" => quote!(MasterSync),
                        "puppetsync" => quote!(PuppetSync),
                        _ => {
                            return Err(syn::Error::new_spanned(
                                lit,
                                "expected remote, master, puppet, remotesync, mastersync or \
                                 puppetsync",
                            ));
                        }
                    };
                    godot3 = Some(quote!(#krate::godot3::RemoteMode::#mode));
                } else {
                    return Err(meta.error(
                        "expected any_peer, authority, call_local, call_remote, reliable, \
                         unreliable, unreliable_ordered, channel = N or godot3 = \"...\"",
                    ));
                }
                Ok(())
            })?;
        }
        let godot3 =
            godot3.unwrap_or_else(|| quote!(#krate::typed::RpcDecl::godot3_of(#mode, #call_local)));
        let ident = &variant.ident;
        let params: Vec<Tokens> = match &variant.fields {
            Fields::Named(fields) => fields
                .named
                .iter()
                .map(|f| {
                    let ty = &f.ty;
                    let name = f
                        .ident
                        .as_ref()
                        .map(ToString::to_string)
                        .unwrap_or_default();
                    quote!(#krate::gdscript::TypedParam::of::<#ty>(#name))
                })
                .collect(),
            Fields::Unnamed(fields) => fields
                .unnamed
                .iter()
                .enumerate()
                .map(|(i, f)| {
                    let ty = &f.ty;
                    let name = format!("arg{i}");
                    quote!(#krate::gdscript::TypedParam::of::<#ty>(#name))
                })
                .collect(),
            Fields::Unit => Vec::new(),
        };
        decls.push(quote! {
            #krate::typed::RpcDecl {
                mode: #mode,
                transfer_mode: #transfer,
                call_local: #call_local,
                channel: #channel,
                godot3: #godot3,
                params: ::std::vec![#(#params),*],
            }
        });
        let pattern = match &variant.fields {
            Fields::Named(_) => quote!(Self::#ident { .. }),
            Fields::Unnamed(_) => quote!(Self::#ident(..)),
            Fields::Unit => quote!(Self::#ident),
        };
        arms.push(quote!(#pattern => #index,));
    }
    let name = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics #krate::typed::RpcSet for #name #ty_generics #where_clause {
            const NODE: &'static str = #node;

            fn declared() -> ::std::vec::Vec<#krate::typed::RpcDecl> {
                ::std::vec![#(#decls),*]
            }

            fn variant_index(&self) -> usize {
                match self {
                    #(#arms)*
                }
            }
        }
    })
}
