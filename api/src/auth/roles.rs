//! The one table of role sets: who may call a handler. The extractors (`RequireRole<R>`) and the
//! generated OpenAPI document (which reads the extractors) both use the sets defined here.

use wasm_core::model::Role;

/// A set of roles allowed to call a handler.
pub trait RoleSet: Send + Sync + 'static {
    const ROLES: &'static [Role];
}

macro_rules! role_sets {
    ($($(#[$doc:meta])* $name:ident = [$($role:ident),*];)*) => {
        $(
            $(#[$doc])*
            pub struct $name;
            impl RoleSet for $name {
                const ROLES: &'static [Role] = &[$(Role::$role),*];
            }
        )*
    };
}

role_sets! {
    /// Every signed-in role.
    SignedIn = [Patient, FrontDesk, ClientAdmin, ProgramManager, Technologist];
    /// FrontDesk, ClientAdmin, ProgramManager.
    Staff = [FrontDesk, ClientAdmin, ProgramManager];
    /// Patients only (their own data).
    PatientOnly = [Patient];
    /// ProgramManager only (manage users, roles, survey packages, version information).
    ProgramManagers = [ProgramManager];
    /// ClientAdmin and ProgramManager (the Users menu and logos, spec 02 §6).
    UserAdmins = [ClientAdmin, ProgramManager];
    /// FrontDesk and ProgramManager (spec 01 §2.5 "Staff start (program manager, front desk)").
    SurveyStarter = [FrontDesk, ProgramManager];
    /// ClientAdmin and ProgramManager: the settings groups' pages (spec 03 §6, spec 04 §6).
    SettingsAdmins = [ClientAdmin, ProgramManager];
    /// Technologist and ProgramManager: the techpad app's read of its configuration (issue 18).
    TechpadReaders = [Technologist, ProgramManager];
    /// A techpad PDF form's file: the tablet (Technologist) and those who manage the list.
    TechpadFormReaders = [Technologist, ClientAdmin, ProgramManager];
}
