//! The tuple shapes every tuple impl of the crate is generated for, in one list.

/// Calls `$m!` with the tuple shapes this crate implements key traits for: 1 to 12 fields,
/// each as `(count; Type.index, ...)`.
macro_rules! for_each_tuple {
    ($m:ident) => {
        $m! {
            (1; A.0)
            (2; A.0, B.1)
            (3; A.0, B.1, C.2)
            (4; A.0, B.1, C.2, D.3)
            (5; A.0, B.1, C.2, D.3, E.4)
            (6; A.0, B.1, C.2, D.3, E.4, F.5)
            (7; A.0, B.1, C.2, D.3, E.4, F.5, G.6)
            (8; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7)
            (9; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8)
            (10; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9)
            (11; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10)
            (12; A.0, B.1, C.2, D.3, E.4, F.5, G.6, H.7, I.8, J.9, K.10, L.11)
        }
    };
}
pub(crate) use for_each_tuple;
