/**
 * Types both sides name: a staff member and the staff roles. Routes, components
 * and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { STAFF_ROLES, type StaffMember, type StaffRole } from "./staff.ts";
