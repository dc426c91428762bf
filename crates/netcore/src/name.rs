//! `Display` for closed sets: a choice prints as the name a config writes for it (`random`,
//! `depth-order`), never as Rust's `Debug` (`Random`, `DepthOrder`), so summaries, errors and
//! picture titles read in the user's words.

/// Writes `value`'s serialised name: the string a unit variant serialises to (its config
/// spelling), or the serialised value as JSON for anything else.
///
/// # Errors
///
/// Only the formatter's.
pub fn write_config_name<T: serde::Serialize>(
    value: &T,
    f: &mut std::fmt::Formatter<'_>,
) -> std::fmt::Result {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => f.write_str(&name),
        Ok(other) => write!(f, "{other}"),
        Err(_) => f.write_str("(unnamed)"),
    }
}

/// Implements `Display` for each listed closed set (an enum that serialises as a string) by
/// its config name, through [`write_config_name`]; `T => method` uses the type's own name
/// method instead (`fn method(self) -> &'static str`, for a set that already has one).
#[macro_export]
macro_rules! display_config_name {
    ($t:ty => $method:ident) => {
        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.$method())
            }
        }
    };
    ($($t:ty),+ $(,)?) => {
        $(
            impl ::std::fmt::Display for $t {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                    $crate::name::write_config_name(self, f)
                }
            }
        )+
    };
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "kebab-case")]
    enum Order {
        DepthOrder,
        Fifo,
    }
    display_config_name!(Order);

    #[test]
    fn a_choice_prints_as_its_config_name() {
        assert_eq!(Order::DepthOrder.to_string(), "depth-order");
        assert_eq!(Order::Fifo.to_string(), "fifo");
    }
}
