/* Attributes of an HDF5 file (io/h5file.h): a real, an integer or a
 * string, written by every rank alike and read back. */
#include "io/h5file_core.h"
#include <string.h>

static PetscErrorCode H5FileWriteAttrLocal(H5File f, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
  hid_t       group, space, attr;
  const char *leaf;

  PetscFunctionBeginUser;
  PetscCall(H5FileParent(f, name, PETSC_TRUE, &group, &leaf));
  PetscCallHDF5(f->path, space = H5Screate(H5S_SCALAR));
  PetscCallHDF5(f->path, attr = H5Acreate2(group, leaf, ftype, space, H5P_DEFAULT, H5P_DEFAULT));
  PetscCallHDF5(f->path, H5Awrite(attr, mtype, value));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscCallHDF5(f->path, H5Sclose(space));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank writes the same value: attribute writes are collective, their
 * outcome agreed (H5FileAgree). */
static PetscErrorCode H5FileWriteAttr(H5File f, const char *name, hid_t ftype, hid_t mtype, const void *value)
{
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = H5FileWriteAttrLocal(f, name, ftype, mtype, value);
  PetscCall(PetscPopErrorHandler());
  PetscCall(H5FileAgree(f, ierr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteAttrReal(H5File f, const char *name, PetscReal v)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileWriteAttr(f, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteAttrInt64(H5File f, const char *name, PetscInt64 v)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileWriteAttr(f, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileWriteAttrString(H5File f, const char *name, const char *v)
{
  hid_t str;

  PetscFunctionBeginUser;
  PetscCallHDF5(f->path, str = H5Tcopy(H5T_C_S1));
  PetscCallHDF5(f->path, H5Tset_size(str, strlen(v) + 1));
  PetscCallHDF5(f->path, H5Tset_strpad(str, H5T_STR_NULLTERM));
  PetscCall(H5FileWriteAttr(f, name, str, str, v));
  PetscCallHDF5(f->path, H5Tclose(str));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileOpenAttr(H5File f, const char *name, hid_t *attr, PetscBool *exists)
{
  hid_t       group;
  const char *leaf;
  htri_t      e;

  PetscFunctionBeginUser;
  *attr = -1;
  PetscCall(H5FileParent(f, name, PETSC_FALSE, &group, &leaf));
  PetscCallHDF5(f->path, e = H5Aexists(group, leaf));
  if (exists) *exists = e > 0 ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(e > 0 || exists, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s has no attribute /%s", f->path, name);
  if (e > 0) PetscCallHDF5(f->path, *attr = H5Aopen(group, leaf, H5P_DEFAULT));
  PetscCallHDF5(f->path, H5Gclose(group));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode H5FileReadAttr(H5File f, const char *name, hid_t mtype, void *v, PetscBool *exists)
{
  hid_t    attr, space;
  hssize_t npoints;

  PetscFunctionBeginUser;
  PetscCall(H5FileOpenAttr(f, name, &attr, exists));
  if (attr < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallHDF5(f->path, space = H5Aget_space(attr));
  PetscCallHDF5(f->path, npoints = H5Sget_simple_extent_npoints(space));
  PetscCallHDF5(f->path, H5Sclose(space));
  PetscCheck(npoints == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: attribute /%s is not a single value",
             f->path, name);
  PetscCallHDF5(f->path, H5Aread(attr, mtype, v));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadAttrReal(H5File f, const char *name, PetscReal *v, PetscBool *exists)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttr(f, name, H5T_NATIVE_DOUBLE, v, exists));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadAttrInt64(H5File f, const char *name, PetscInt64 *v, PetscBool *exists)
{
  PetscFunctionBeginUser;
  PetscCall(H5FileReadAttr(f, name, H5T_NATIVE_INT64, v, exists));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode H5FileReadAttrString(H5File f, const char *name, char **v, PetscBool *exists)
{
  hid_t    attr, ftype, mtype, space;
  size_t   len;
  htri_t   vlen;
  hssize_t npoints;

  PetscFunctionBeginUser;
  *v = NULL;
  PetscCall(H5FileOpenAttr(f, name, &attr, exists));
  if (attr < 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallHDF5(f->path, space = H5Aget_space(attr));
  PetscCallHDF5(f->path, npoints = H5Sget_simple_extent_npoints(space));
  PetscCallHDF5(f->path, H5Sclose(space));
  /* one string is read: an array would overrun it */
  if (npoints != 1) PetscCallHDF5(f->path, H5Aclose(attr));
  PetscCheck(npoints == 1, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: attribute /%s is not a single string",
             f->path, name);
  PetscCallHDF5(f->path, ftype = H5Aget_type(attr));
  PetscCallHDF5(f->path, vlen = H5Tis_variable_str(ftype));
  PetscCheck(H5Tget_class(ftype) == H5T_STRING && !vlen, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s: attribute /%s is not a fixed-length string", f->path, name);
  len = H5Tget_size(ftype);
  PetscCallHDF5(f->path, mtype = H5Tcopy(H5T_C_S1));
  PetscCallHDF5(f->path, H5Tset_size(mtype, len + 1));
  PetscCallHDF5(f->path, H5Tset_strpad(mtype, H5T_STR_NULLTERM));
  PetscCall(PetscCalloc1(len + 1, v));
  PetscCallHDF5(f->path, H5Aread(attr, mtype, *v));
  PetscCallHDF5(f->path, H5Tclose(mtype));
  PetscCallHDF5(f->path, H5Tclose(ftype));
  PetscCallHDF5(f->path, H5Aclose(attr));
  PetscFunctionReturn(PETSC_SUCCESS);
}
