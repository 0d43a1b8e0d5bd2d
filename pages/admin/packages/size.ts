/** Spec section 9: 1 GB = 1024 MB; 1024 MB or more shows as GB with 1 decimal, else MB. */
export const MB_PER_GB = 1024
export const formatSize = (mb: number) => (mb >= MB_PER_GB ? `${(mb / MB_PER_GB).toFixed(1)} GB` : `${mb} MB`)
export const gbToMb = (gb: number) => Math.round(gb * MB_PER_GB)
export const mbToGbText = (mb: number) => String(Number((mb / MB_PER_GB).toFixed(2)))
